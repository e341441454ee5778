// line comment with trailing backslash continues \
this is still comment
int a/**/b; /* multi
line
comment */ int c;
int d = 1 // comment
;
/* a comment spanning
   lines between */ float e;
int f\
oo = 1\
2;
#define X 1 /* comment
  inside a directive */ + 2
int g = X;
