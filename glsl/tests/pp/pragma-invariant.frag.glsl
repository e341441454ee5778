#version 300 es
#pragma STDGL invariant(all)
