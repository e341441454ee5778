float a = 1.0e+5 + .5 + 5. + 1e10f + 2E-3F + 1.5lf + 3.25LF;
int b = 0x1F + 0X1fu + 0777 + 7u + 42U + 0;
float c = 1.0.0;
int d = 1x;
uint e = 0xFFFFFFFF;
float f = 1.e5 + 6e + 0x;
