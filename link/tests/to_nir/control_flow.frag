#version 130
uniform int n;
uniform vec4 a;
out vec4 color;
void main() {
    vec4 acc = vec4(0.0);
    for (int i = 0; i < n; i++) {
        if (i == 3)
            continue;
        if (acc.x > 10.0)
            break;
        acc += a;
    }
    int j = 0;
    while (j < 4) {
        j++;
        if (j == 2) {
            acc.y += 1.0;
        } else if (j == 3) {
            acc.z -= 1.0;
        } else {
            acc.w *= 2.0;
        }
    }
    do {
        acc *= 0.5;
    } while (acc.x > 1.0);
    if (acc.w < 0.0)
        discard;
    if (a.x > 0.5) {
        color = acc;
        return;
    }
    color = -acc;
}
