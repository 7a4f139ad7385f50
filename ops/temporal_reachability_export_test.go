package ops

// SetReachKernelForTest forces temporal_reachability's kernel without a
// wait cap ("pass", "settle", or "" for the adaptive choice) and returns a
// function that restores the previous choice.
func SetReachKernelForTest(k string) (restore func()) {
	old := reachKernel
	reachKernel = k
	return func() { reachKernel = old }
}
