int v = __VERSION__;
