#version 430
// A 5x3x2 workgroup (30 invocations: one full lane batch and a partial one):
// local IDs, a ring of shared words rotated by one place per round with two
// barriers per round inside a loop, and shared atomics whose results do not
// depend on the order the invocations run in.
layout(local_size_x = 5, local_size_y = 3, local_size_z = 2) in;
layout(std430, binding = 0) buffer Ids { uint ids[]; };
layout(std430, binding = 1) buffer Rotated { uint rotated[]; };
layout(std430, binding = 2) buffer Totals { uint totals[]; };
uniform int rounds;
shared uint ring[30];
shared uint acc;
shared int lo;
shared int hi;
shared uint flag;
shared uint winners;
shared uint swap_word;
shared uint swapped_out;

void main()
{
	uint i = gl_LocalInvocationIndex;
	uvec3 l = gl_LocalInvocationID;
	uint g = gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y;
	uint global = g * 30u + i;
	ids[global] = l.x | (l.y << 8) | (l.z << 16) | (gl_WorkGroupID.y << 24);
	if (i == 0u) {
		acc = 0u;
		lo = 1000;
		hi = -1000;
		flag = 0u;
		winners = 0u;
		swap_word = 7u;
		swapped_out = 0u;
	}
	ring[i] = i;
	barrier();
	for (int r = 0; r < rounds; r++) {
		uint next = ring[(i + 1u) % 30u];
		barrier();
		ring[i] = next;
		barrier();
	}
	rotated[global] = ring[i];
	atomicAdd(acc, ring[i]);
	atomicMin(lo, int(i) - 10);
	atomicMax(hi, int(i) * 3);
	if (atomicCompSwap(flag, 0u, 1u) == 0u)
		atomicAdd(winners, 1u);
	atomicAdd(swapped_out, atomicExchange(swap_word, i));
	barrier();
	if (i == 0u) {
		totals[g * 6u + 0u] = acc;
		totals[g * 6u + 1u] = uint(lo);
		totals[g * 6u + 2u] = uint(hi);
		totals[g * 6u + 3u] = winners;
		totals[g * 6u + 4u] = swapped_out + swap_word;
		totals[g * 6u + 5u] = gl_NumWorkGroups.x * 100u + gl_NumWorkGroups.y;
	}
}
