package ops_test

import "math/rand/v2"

func init() {
	argGens["entity_history"] = func(rng *rand.Rand, w *world) map[string]any {
		args := map[string]any{"uid": pickUID(rng, w)}
		if rng.IntN(2) == 0 {
			args["include_edges"] = true
			args["limit"] = int64(1 + rng.IntN(4))
		}
		withProvenanceArgs(rng, args)
		return withAsOf(rng, w, args)
	}
}
