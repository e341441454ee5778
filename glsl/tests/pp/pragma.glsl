#version 120
#pragma STDGL invariant(all)
#pragma optimize(on)
#pragma debug(off)
#pragma unlikely_to_be_recognized
#pragma
#define X 1
#pragma X is not expanded
void main()
{
#pragma debug(off)
#pragma optimize(on)
#pragma anything goes here
}
#pragma optimize(off)
