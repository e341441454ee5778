#version 130
// Statement rules.
void main()
{
    int i = 0;
    if (i) {}
    while (1.0) {}
    for (; vec2(1.0); ) {}
    break;
    continue;
    discard;
    switch (1.0) { default: break; }
    switch (i) {
    case 1: break;
    case 1: break;
    case i: break;
    case 2u: break;
    default: break;
    default: break;
    }
    do { continue; } while (i);
    gl_Position = vec4(0.0);
}
