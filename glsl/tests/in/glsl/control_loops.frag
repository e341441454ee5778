#version 130
uniform int n;
uniform float step_size;
out vec4 color;

void main()
{
    float sum = 0.0;
    for (int i = 0; i < 10; i++) {
        if (i == n)
            break;
        if (i % 2 == 0)
            continue;
        sum += float(i);
    }
    int j = 0;
    while (j < n) {
        sum += step_size;
        j++;
    }
    do {
        sum *= 0.5;
    } while (sum > 1.0);
    for (;;) {
        for (int k = 0; k < 3; k++)
            sum += 1.0;
        if (sum > 100.0)
            break;
    }
    color = vec4(sum);
}
