#version 100
// ES return types need a precision; prototype and definition must agree.
float noprecision() { return 1.0; }
precision mediump float;
float get_three();
highp float get_three() { return 3.0; }
void main()
{
    gl_FragColor = vec4(get_three() + noprecision());
}
