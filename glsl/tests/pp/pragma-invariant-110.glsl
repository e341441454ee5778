#pragma STDGL invariant(all)
