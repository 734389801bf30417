package analysis

import "testing"

// TestMemoryCheck reads the reports of several memory checkers
// (compute-sanitizer's tools and cuda-memcheck before it, AddressSanitizer,
// LeakSanitizer, ThreadSanitizer, UndefinedBehaviorSanitizer's summary,
// glibc's heap and fortify aborts of several releases), tells a report's
// first line from the summaries and API errors after it, and leaves alone
// the checkers' banners, detail lines, clean summaries and warnings about
// themselves, and an application's lines that use the same words.
func TestMemoryCheck(t *testing.T) {
	type want struct{ report, lead bool }
	lead, follow, none := want{true, true}, want{true, false}, want{false, false}
	for l, w := range map[string]want{
		// compute-sanitizer and cuda-memcheck.
		"========= Invalid __global__ read of size 2 bytes":                                                                                         lead,
		"========= Invalid __shared__ write of size 4 bytes":                                                                                        lead,
		"========= Uninitialized __global__ memory read of size 4 bytes":                                                                            lead,
		"========= Error: Race reported between Write access at 0x150 in k.cu:9:kern(int*)":                                                         lead,
		"========= Barrier error detected. Divergent thread(s) in block":                                                                            lead,
		"========= Misaligned Shared or Local Address":                                                                                              lead,
		"========= Out-of-range Shared or Local Address":                                                                                            lead,
		"========= Leaked 1,024 bytes at 0x7f0000000000":                                                                                            lead,
		"========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA API call to cudaDeviceSynchronize.": follow,
		"========= Program hit CUDA_ERROR_INVALID_VALUE (error 1) due to \"invalid argument\" on CUDA API call to cuMemcpy.":                        follow,
		"========= ERROR SUMMARY: 3 errors":                                                                                                         follow,
		"========= Error: process didn't terminate successfully":                                                                                    follow,
		"========= ERROR SUMMARY: 0 errors":                                                                                                         none,
		"========= COMPUTE-SANITIZER":                                                                                                               none,
		"========= CUDA-MEMCHECK":                                                                                                                   none,
		"=========     at void mul_mat_vec_q<(ggml_type)12>(...)+0x540":                                                                             none,
		"=========     Address 0x7f788a3f7a0c is out of bounds":                                                                                     none,
		"=========         Host Frame:  [0x2f285f] in libcuda.so.1":                                                                                 none,
		"========= This tool is deprecated":                                                                                                         none,

		// The compilers' sanitizers.
		"==12345==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x401234": lead,
		"==7==ERROR: LeakSanitizer: detected memory leaks":                                               lead,
		"==7==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000":                           lead,
		"WARNING: ThreadSanitizer: data race (pid=4242)":                                                 lead,
		"==7==AddressSanitizer:DEADLYSIGNAL":                                                             follow,
		"SUMMARY: AddressSanitizer: heap-use-after-free /src/a.cc:10 in main":                            follow,
		"SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior /src/x.cpp:42:13":                       follow,
		"==7==WARNING: AddressSanitizer failed to allocate 0x1000 bytes":                                 none,
		"==7==ERROR: something else: x":                                                                  none,
		"SUMMARY: 12 passed, 0 failed":                                                                   none,
		"SUMMARY: Test Sanitizer run: ok":                                                                none,

		// glibc.
		"free(): invalid pointer":                   lead,
		"free(): double free detected in tcache 2":  lead,
		"double free or corruption (out)":           lead,
		"malloc(): corrupted top size":              lead,
		"malloc(): unaligned tcache chunk detected": lead,
		"munmap_chunk(): invalid pointer":           lead,
		"corrupted size vs. prev_size":              lead,
		"realloc(): invalid next size":              lead,
		"*** Error in `python': double free or corruption (fasttop): 0x0000000001a2b3c0 ***": lead,
		"*** stack smashing detected ***: terminated":                                        lead,
		"*** buffer overflow detected ***: terminated":                                       lead,
		"free(): released 3 blocks":                                                          none,
		"malloc(): arena 2 created":                                                          none,
		"reset_cache(): invalid entries dropped":                                             none,
		"*** Starting the server ***":                                                        none,
		"*** 3 warnings detected in config ***":                                              none,
		"double-check the flags":                                                             none,
		"corrupted files are re-downloaded":                                                  none,
		"":                                                                                   none,
		"=======":                                                                            none,
		"==":                                                                                 none,
	} {
		report, isLead := memoryCheck(l)
		if report != w.report || report && isLead != w.lead {
			t.Errorf("memoryCheck(%q) = %v, %v; want %v, %v", l, report, isLead, w.report, w.lead)
		}
	}
}

// FuzzMemoryCheck: memoryCheck never panics, reads a line only where
// memCheckStart let it, and a lead is always a report.
func FuzzMemoryCheck(f *testing.F) {
	for _, s := range []string{
		"========= Invalid __global__ read of size 2 bytes",
		"==12345==ERROR: AddressSanitizer: heap-use-after-free on address 0x6",
		"*** Error in `python': double free or corruption (fasttop): 0x0 ***",
		"free(): invalid pointer",
		"SUMMARY: AddressSanitizer: x",
		"==1==",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		report, lead := memoryCheck(l)
		if lead && !report {
			t.Fatalf("memoryCheck(%q): a lead that is no report", l)
		}
		if report && !memCheckStart(l) {
			t.Fatalf("memoryCheck(%q): a report memCheckStart refuses", l)
		}
	})
}
