#if
#endif
#if 1 / 0
#endif
#if 1 % 0
#endif
#if 1 +
#endif
#if (1
#endif
#if 1.0
#endif
#if 'c'
#endif
#if 1 2
#endif
#if defined
#endif
#if defined(
#endif
#if defined(X
#endif
#if 1 ? 2 : 3
#endif
#if 0
#elif
#endif
#if 1
#else
#elif 1
#endif
#if 1
#else
#else
#endif
#ifdef
#endif
#ifdef 1
#endif
#ifdef A B
#endif
#else
#elif 1
#endif
#if 1
#endif junk
#if 0
#else junk
#endif
int after;
