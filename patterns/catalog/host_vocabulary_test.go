package catalog_test

import (
	"testing"
)

// The host vocabularies are the failure texts of the layers every LLM
// host meets before and around its serving or training process: Python
// packaging and native builds (pip, uv, conda, CMake, the compilers and
// nvcc), CUDA, ROCm and XPU device discovery as torch and NVML report it,
// the dynamic loader's and the extensions' ABI complaints, and the
// launchers of distributed runs (torchrun's elastic agent, the c10d
// store, DeepSpeed's launcher). Each is composed the way the tool prints
// it (bare, in a traceback, behind a launcher's prefix) and checked as
// vocabulary_test.go checks the libraries under an engine.

// TestHostVocabularies checks every host vocabulary and logs its count of
// failure strings claimed.
func TestHostVocabularies(t *testing.T) {
	checkVocabularies(t, hostVocabularies())
}

func hostVocabularies() []vocabulary {
	return []vocabulary{
		pythonPackaging,
		nativeBuilds,
		deviceDiscovery,
		deviceTools,
		extensionABI,
		distributedLaunch,
	}
}

// pipStep is how a container entrypoint that installs a package before
// the server leaves pip's or uv's output in the log.
const pipStep = "+ pip install -r requirements.txt\n%s"

// pythonPackaging are the failures of pip, uv and conda: a build that
// failed, no release that fits, a resolver that found no solution, a hash
// that does not match, an interpreter its distribution manages.
var pythonPackaging = vocabulary{
	name: "pip, uv and conda",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: pipStep},
	},
	terms: []vocabTerm{
		{"  error: subprocess-exited-with-error\n  \n  × Building wheel for flash-attn (setup.py) did not run successfully.\n  │ exit code: 1\n  ╰─> [12 lines of output]", "", "", "python-package-build-failed"},
		{"ERROR: Failed building wheel for flash-attn", "", "", "python-package-build-failed"},
		{"ERROR: Could not build wheels for flash-attn, which is required to install pyproject.toml-based projects", "", "", "python-package-build-failed"},
		{"ERROR: Failed to build installable wheels for some pyproject.toml based projects (sgl-kernel)", "", "", "python-package-build-failed"},
		{"× Getting requirements to build wheel did not run successfully.\n│ exit code: 1", "", "", "python-package-build-failed"},
		{"error: metadata-generation-failed\n\n× Encountered error while generating package metadata.", "", "", "python-package-build-failed"},
		{"  × Failed to build `flash-attn==2.7.4.post1`\n  ├─▶ The build backend returned an error\n  ╰─▶ Call to `setuptools.build_meta:__legacy__.build_wheel` failed (exit status: 1)", "", "", "python-package-build-failed"},
		{"ERROR: Could not find a version that satisfies the requirement sgl-kernel==0.9.9 (from versions: 0.1.0, 0.1.1)", "", "", "python-package-not-found"},
		{"ERROR: No matching distribution found for sgl-kernel==0.9.9", "", "", "python-package-not-found"},
		{"  × No solution found when resolving dependencies:\n  ╰─▶ Because sglang==0.4.6 depends on torch==2.6.0 and you require torch==2.7.0, we can conclude that your requirements are unsatisfiable.", "", "", "python-dependency-resolution-failed"},
		{"ERROR: Cannot install sglang[all]==0.4.6 and torch==2.7.0 because these package versions have conflicting dependencies.", "", "", "python-dependency-resolution-failed"},
		{"ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts", "", "", "python-dependency-resolution-failed"},
		{"LibMambaUnsatisfiableError: Encountered problems while solving:\n  - package pytorch-2.6.0 requires cuda-version >=12.4, but none of the providers can be installed", "", "", "python-dependency-resolution-failed"},
		{"UnsatisfiableError: The following specifications were found to be incompatible with each other:", "", "", "python-dependency-resolution-failed"},
		{"ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.\nsglang 0.4.6 requires torch==2.6.0, but you have torch 2.7.1 which is incompatible.", "", "", "python-installed-dependency-conflict"},
		{"vllm 0.8.5 requires torch==2.6.0, but you have torch 2.7.1 which is incompatible.", "", "", "python-installed-dependency-conflict"},
		{"  × Failed to download `torch==2.6.0+cu124`\n  ╰─▶ Hash mismatch for `torch==2.6.0+cu124`", "", "", "python-package-hash-mismatch"},
		{"ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package versions, please update the hashes. Otherwise, examine the package contents carefully; someone may have tampered with them.", "", "", "python-package-hash-mismatch"},
		{"error: externally-managed-environment\n\n× This environment is externally managed", "", "", "python-externally-managed-environment"},
		{"ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device", "", "", "no-space-left-on-device"},
		{"      ModuleNotFoundError: No module named 'torch'\n      [end of output]\n  \n  note: This error originates from a subprocess, and is likely not a problem with pip.\nerror: subprocess-exited-with-error", "", "", "python-package-build-failed"},
		{"ERROR: Could not install packages due to an OSError: HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Read timed out.", "", "", "python-package-download-failed"},
		{"ERROR: Exception:\nTraceback (most recent call last):\npip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='download.pytorch.org', port=443): Read timed out.", "", "", "python-package-download-failed"},
		{"WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3a2c0b8d10>: Failed to establish a new connection: [Errno 101] Network is unreachable')': /simple/sglang/", "", "", ""},
		{"WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager.", "", "", ""},
		{"ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/usr/local/lib/python3.12/dist-packages/torch-2.6.0.dist-info'\nConsider using the `--user` option or check the permissions.", "", "", "filesystem-access-denied"},
		{"ERROR: Invalid requirement: 'sglang[all]>=0.4.6,' (from line 3 of requirements.txt)", "", "", "python-requirement-invalid"},
		{"Successfully installed sglang-0.4.6 torch-2.6.0", "", "", ""},
		{"Requirement already satisfied: torch==2.6.0 in /usr/local/lib/python3.12/dist-packages (2.6.0)", "", "", ""},
		{"Building wheel for flash-attn (setup.py) ... done", "", "", ""},
		{"Resolved 142 packages in 1.21s", "", "", ""},
		{"Collecting package metadata (repodata.json): done\nSolving environment: done", "", "", ""},
	},
}

// nativeBuilds are what a native build of an extension prints when it
// fails: CMake's configure errors, the compiler's and linker's fatal
// errors, and nvcc's.
var nativeBuilds = vocabulary{
	name: "CMake, compilers and nvcc",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "      %s"},
	},
	terms: []vocabTerm{
		{"CMake Error at CMakeLists.txt:12 (project):\n  No CMAKE_CUDA_COMPILER could be found.", "", "", "cuda-toolkit-not-found"},
		{"CMake Error at /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n  Could NOT find CUDAToolkit (missing: CUDAToolkit_NVCC_EXECUTABLE CUDA_CUDART)", "", "", "cuda-toolkit-not-found"},
		{"CMake Error at /usr/share/cmake-3.28/Modules/CMakeDetermineCUDACompiler.cmake:180 (message):\n  Failed to find nvcc.\n\n  Compiler requires the CUDA toolkit.  Please set the CUDAToolkit_ROOT\n  variable.", "", "", "cuda-toolkit-not-found"},
		{"CMake Error at /usr/share/cmake-3.28/Modules/Internal/CMakeCUDAArchitecturesValidate.cmake:7 (message):\n  CMAKE_CUDA_ARCHITECTURES must be non-empty if set.", "", "", "cmake-configure-failed"},
		{"CMake Error at CMakeLists.txt:18 (find_package):\n  By not providing \"FindTorch.cmake\" in CMAKE_MODULE_PATH this project has\n  asked CMake to find a package configuration file provided by \"Torch\", but\n  CMake did not find one.", "", "", "cmake-configure-failed"},
		{"-- Configuring incomplete, errors occurred!", "", "", "cmake-configure-failed"},
		{"csrc/flash_api.cpp:4:10: fatal error: Python.h: No such file or directory", "", "", "jit-compile-missing-header"},
		{"/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc versions later than 12 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your own risk.", "", "", "nvcc-unsupported-host-compiler"},
		{"/usr/bin/ld: build/temp.linux-x86_64-cpython-312/csrc/ops.o: in function `launch_kernel':\nops.cu:(.text+0x1a4): undefined reference to `cudaLaunchKernelExC'\ncollect2: error: ld returned 1 exit status", "", "", "native-link-failed"},
		{"/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld returned 1 exit status", "", "", "native-link-failed"},
		{"nvcc error   : 'cicc' died due to signal 9 (Kill signal)", "", "", "compiler-killed-out-of-memory"},
		{"x86_64-linux-gnu-g++: fatal error: Killed signal terminated program cc1plus", "", "", "compiler-killed-out-of-memory"},
		// The program's name wrapped onto the next line by pip's indented output.
		{"      x86_64-linux-gnu-g++: fatal error: Killed signal terminated program", "", "", "compiler-killed-out-of-memory"},
		{"gcc: fatal error: Killed signal terminated program as", "", "", "compiler-killed-out-of-memory"},
		{"c++: internal compiler error: Killed (program cc1plus)", "", "", "compiler-killed-out-of-memory"},
		{"      g++: internal compiler error: Killed", "", "", "compiler-killed-out-of-memory"},
		{"nvcc fatal   : Unsupported gpu architecture 'compute_120'", "", "", "nvcc-unsupported-gpu-architecture"},
		{"2 errors detected in the compilation of \"csrc/attention.cu\".", "", "", "nvcc-compilation-errors"},
		{"RuntimeError: Ninja is required to load C++ extensions", "", "", "ninja-not-installed"},
		{"deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile CUDA op(s)", "", "", "cuda-toolkit-not-found"},
		{"error: command '/usr/local/cuda/bin/nvcc' failed: No such file or directory", "", "", "cuda-toolkit-not-found"},
		{"nvcc fatal   : Unknown option '-generate-dependencies-with-compile'", "", "", "nvcc-toolkit-too-old"},
		{"gcc: error: unrecognized command-line option '-std=c++20'; did you mean '-std=c++2a'?", "", "", "host-compiler-too-old"},
		{"ptxas fatal   : Value 'sm_100a' is not defined for option 'gpu-name'", "", "", "nvcc-unsupported-gpu-architecture"},
		{"-- The CUDA compiler identification is NVIDIA 12.4.131\n-- Configuring done (2.1s)\n-- Generating done (0.1s)", "", "", ""},
		{"[12/48] /usr/local/cuda/bin/nvcc -c csrc/attention.cu -o build/attention.o", "", "", ""},
	},
}

// deviceDiscovery are what torch, NVML and the GPU runtimes say when a
// process finds no usable device: no driver, a driver older than the
// runtime, a torch built without the backend, a device list that does
// not fit, CUDA touched before a fork; with ROCm's and Level Zero's
// counterparts.
var deviceDiscovery = vocabulary{
	name: "CUDA, ROCm and XPU device discovery",
	shapes: []vocabShape{
		{Field: fieldText, Format: tb("%s")},
		{Field: fieldText, Format: rawTB("%s")},
	},
	terms: []vocabTerm{
		{"RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.", "", "", "cuda-driver-version-insufficient"},
		{"RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version", "", "", "cuda-driver-version-insufficient"},
		{"AssertionError: Torch not compiled with CUDA enabled", "", "", "torch-not-compiled-with-cuda"},
		{"RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx", "", "", "no-cuda-gpus-available"},
		{"RuntimeError: CUDA error: no CUDA-capable device is detected", "", "", "no-cuda-gpus-available"},
		{"RuntimeError: No CUDA GPUs are available", "", "", "no-cuda-gpus-available"},
		{"RuntimeError: CUDA error: invalid device ordinal", "", "", "cuda-invalid-device-ordinal"},
		{"RuntimeError: CUDA error: initialization error", "", "", "cuda-initialization-error"},
		{"RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method", "", "", "cuda-reinit-forked-subprocess"},
		{"UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.", "", "", "cuda-unknown-error"},
		{"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW", "", "", "cuda-driver-mismatch"},
		{"torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at \"../aten/src/ATen/cuda/CUDAContext.cpp\":50, please report a bug to PyTorch. device=1, num_gpus=1", "", "", "cuda-invalid-device-ordinal"},
		{"RuntimeError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!", "", "", "c10d-nccl-no-gpus"},
		{"RuntimeError: HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!", "", "", "hip-no-binary-for-gpu"},
		{"RuntimeError: HIP error: invalid device ordinal", "", "", "cuda-invalid-device-ordinal"},
		{"RuntimeError: PyTorch is not linked with support for xpu devices", "", "", "torch-not-compiled-with-cuda"},
		{"AssertionError: Torch not compiled with XPU enabled", "", "", "torch-not-compiled-with-cuda"},
		{"RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable", "", "", "cuda-devices-busy-or-unavailable"},
		{"pynvml.NVMLError_NoPermission: Insufficient Permissions", "", "", "nvml-query-failed"},
		{"pynvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found", "", "", "nvidia-driver-not-loaded"},
		{"pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded", "", "", "nvidia-driver-not-loaded"},
		{"RuntimeError: HIP error: no ROCm-capable device is detected", "", "", "no-cuda-gpus-available"},
		{"RuntimeError: HIP error: hipErrorNoDevice", "", "", "no-cuda-gpus-available"},
		{"RuntimeError: level_zero backend failed with error: 20 (UR_RESULT_ERROR_DEVICE_LOST)", "", "", "xpu-level-zero-error"},
		{"RuntimeError: Native API failed. Native API returns: 2147483646 (UR_RESULT_ERROR_UNKNOWN)", "", "", "xpu-level-zero-error"},
		{"RuntimeError: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", "", "", "xpu-level-zero-error"},
	},
}

// deviceTools are what the device query tools an entrypoint or a health
// check runs (rocminfo, amd-smi) print when the process cannot reach the
// GPUs' device files.
var deviceTools = vocabulary{
	name: "device query tools",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "+ rocminfo\n%s"},
	},
	terms: []vocabTerm{
		{"hsa api call failure at: /long_pathname_so_that_rpms_can_package_the_debug_info/src/rocminfo/rocminfo.cc:1306\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This error may also occur when the core runtime library needs to spawn threads or create internal OS-specific events.", "", "", "rocm-kfd-not-accessible"},
		{"ROCk module is NOT loaded, possibly no GPU devices", "", "", "rocm-kfd-not-accessible"},
		{"ROCk module is loaded", "", "", ""},
	},
}

// extensionABI are the loader's and the extensions' reports of a binary
// built against another torch, CUDA or C++ runtime than the one loaded.
var extensionABI = vocabulary{
	name: "torch extension ABI and version skew",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("%s")},
		{Field: fieldText, Format: tb("%s")},
	},
	terms: []vocabTerm{
		{"ImportError: /usr/local/lib/python3.12/dist-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", "", "", "torch-extension-undefined-symbol"},
		{"ImportError: /usr/local/lib/python3.12/dist-packages/vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEab", "", "", "torch-extension-undefined-symbol"},
		{"ImportError: /usr/local/lib/python3.12/dist-packages/sgl_kernel/sm90/common_ops.abi3.so: undefined symbol: _ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_ib", "", "", "sgl-kernel-undefined-symbol"},
		{"ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by /usr/local/lib/python3.12/dist-packages/sgl_kernel/common_ops.abi3.so)", "", "", "system-library-version-too-old"},
		{"ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory", "", "", "cuda-shared-library-missing"},
		{"RuntimeError: operator torchvision::nms does not exist", "", "", "torch-op-not-built-for-backend"},
		{"RuntimeError: \nThe detected CUDA version (12.1) mismatches the version that was used to compile\nPyTorch (11.8). Please make sure to use the same CUDA versions.", "", "", "torch-cuda-version-mismatch-build"},
		{"RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch has CUDA Version=11.8 and torchvision has CUDA Version=12.1. Please reinstall the torchvision that matches your PyTorch install.", "", "", "torch-extension-version-skew"},
		{"WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.5.1+cu121 with CUDA 1201 (you have 2.6.0+cu124)\n    Python  3.12.7 (you have 3.12.3)", "", "", "torch-extension-version-skew"},
		{"OSError: /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommWindowRegister", "", "", "torch-extension-undefined-symbol"},
		{"Exception: Installed CUDA version 12.1 does not match the version torch was compiled with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.", "", "", "torch-cuda-version-mismatch-build"},
		{"ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by /usr/local/lib/python3.12/dist-packages/sgl_kernel/common_ops.abi3.so)", "", "", "system-library-version-too-old"},
		{"ImportError: /usr/local/lib/python3.12/dist-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12", "", "", "cuda-library-version-skew"},
		{"OSError: /usr/local/lib/python3.12/dist-packages/nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12", "", "", "cuda-library-version-skew"},
		{"ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `CXXABI_1.3.15' not found (required by /usr/local/lib/python3.12/dist-packages/vllm/_C.abi3.so)", "", "", "system-library-version-too-old"},
		{"ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory", "", "", "cuda-shared-library-missing"},
		{"FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'", "", "", "cuda-toolkit-not-found"},
		{"ImportError: DLL load failed while importing _C: The specified module could not be found.", "", "", "windows-dll-load-failed"},
		{"OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\Python312\\Lib\\site-packages\\torch\\lib\\c10.dll\" or one of its dependencies.", "", "", "windows-dll-load-failed"},
	},
}

// distributedLaunch are the failures of the launchers of a distributed
// run: torchrun's elastic agent and its rendezvous, the c10d store that
// every rank meets at MASTER_ADDR:MASTER_PORT, DeepSpeed's launcher.
var distributedLaunch = vocabulary{
	name: "torchrun, c10d store and DeepSpeed launcher",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("%s")},
		{Field: fieldText, Format: "[rank0]: %s"},
	},
	terms: []vocabTerm{
		{"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n============================================================\ntrain.py FAILED", "", "", "torch-elastic-child-failed"},
		{"torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError", "", "", "torch-elastic-rendezvous-failed"},
		{"torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIPv6: false, code: -98, name: EADDRINUSE, message: address already in use", "", "", "c10d-server-socket-address-in-use"},
		{"torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.", "", "", "c10d-store-wait-for-clients-timeout"},
		{"ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set", "", "", "c10d-rendezvous-env-unset"},
		{"ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set", "", "", "c10d-rendezvous-env-unset"},
		{"[2026-05-28 00:11:09,123] [ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=0'] exits with return code = -9", "", "", "deepspeed-launcher-rank-failed"},
		{"[2026-05-28 00:11:09,123] torch.distributed.elastic.agent.server.api: [ERROR] Error waiting on exit barrier. Elapsed: 300.1 seconds", "", "", "torch-elastic-exit-barrier-timeout"},
		{"torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 4021) of binary: /usr/bin/python3", "", "", "torch-elastic-child-failed"},
		{"torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGKILL", "", "", "torch-spawn-process-exited"},
		{"torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with exit code 1", "", "", "torch-spawn-process-exited"},
		{"torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use). The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use).", "", "", "c10d-server-socket-address-in-use"},
		{"ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_PORT expected, but not set", "", "", "c10d-rendezvous-env-unset"},
		{"torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 4022 closing signal SIGTERM", "", "", ""},
		{"The following values were not passed to `accelerate launch` and had defaults used instead:\n\t`--num_processes` was set to a value of `8`", "", "", ""},
		{"[WARNING] [real_accelerator.py:181:get_accelerator] Setting accelerator to CPU. If you have GPU or other accelerator, we were not able to detect it.", "", "", "deepspeed-accelerator-not-detected"},
		{"torch.multiprocessing.spawn.ProcessRaisedException: \n\n-- Process 1 terminated with the following error:\nTraceback (most recent call last):\n  File \"/usr/local/lib/python3.12/dist-packages/torch/multiprocessing/spawn.py\", line 90, in _wrap\n    fn(i, *args)\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.10 GiB of which 1.02 GiB is free.", "", "", "cuda-out-of-memory"},
		{"RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:30:00)", "", "", "c10d-store-wait-for-clients-timeout"},
		{"torch.distributed.DistStoreError: use_libuv was requested but PyTorch was build without libuv support, run with USE_LIBUV=0 to disable it.", "", "", "c10d-store-libuv-unavailable"},
		{"torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.", "", "", "torch-elastic-rendezvous-failed"},
		{"RuntimeError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout", "", "", "c10d-nccl-unique-id-exchange-failed"},
		{"RuntimeError: context has already been set", "", "", "multiprocessing-start-method-already-set"},
		{"[E socket.cpp:957] [c10d] The client socket has timed out after 1800s while trying to connect to (10.0.0.1, 29500).", "", "", "c10d-client-socket-timeout"},
		{"torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (10.0.0.1, 29500).", "", "", "c10d-client-socket-connect-failed"},
		{"torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?", "", "", "c10d-tcpstore-recv-failed"},
		{"torch.distributed.elastic.rendezvous.api.RendezvousClosedError", "", "", "torch-elastic-rendezvous-failed"},
		{"torch.distributed.elastic.multiprocessing.api.SignalException: Process 4021 got signal: 15", "", "", "torch-elastic-signal-exception"},
		{"torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (10.0.0.1, 29500).", "", "", "c10d-client-socket-timeout"},
	},
}

// hostExamples are the lines of the records the host vocabularies added,
// with the near misses each must leave alone.
var hostExamples = map[string]example{
	"python-package-build-failed": {
		match: []string{
			"  ERROR: Failed building wheel for flash-attn",
			"ERROR: Could not build wheels for flash-attn, which is required to install pyproject.toml-based projects",
			"ERROR: Failed to build installable wheels for some pyproject.toml based projects (flash_attn)",
			"  × Building wheel for sgl-kernel (pyproject.toml) did not run successfully.",
			"  × python setup.py bdist_wheel did not run successfully.",
			"error: failed-wheel-build-for-install",
			"  × Failed to build `flash-attn==2.7.4.post1`",
		},
		miss: []string{
			"  Building wheel for flash-attn (setup.py) ... done",
			"Successfully built flash-attn",
			"Failed to build the CUDA graph runner",
		},
	},
	"python-package-not-found": {
		match: []string{
			"ERROR: Could not find a version that satisfies the requirement torch==2.9.9 (from versions: 2.5.0, 2.5.1)",
			"ERROR: No matching distribution found for sglang[all]==0.9.9",
		},
		miss: []string{"Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu128"},
	},
	"python-dependency-resolution-failed": {
		match: []string{
			"ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts",
			"ERROR: Cannot install sglang==0.4.6 and vllm==0.8.5 because these package versions have conflicting dependencies.",
			"  × No solution found when resolving dependencies:",
			"      and you require torch==2.7.0, we can conclude that your requirements are unsatisfiable.",
			"UnsatisfiableError: The following specifications were found to be incompatible with each other:",
		},
		miss: []string{"INFO: pip is looking at multiple versions of torch to determine which version is compatible with other requirements. This could take a while."},
	},
	"python-installed-dependency-conflict": {
		match: []string{
			"sgl-kernel 0.1.0 requires torch==2.6.0, but you have torch 2.7.1 which is incompatible.",
			"xformers 0.0.29.post2 requires torch==2.6.0, but you have torch 2.7.0+cu128 which is incompatible.",
		},
		miss: []string{"Requirement already satisfied: torch==2.6.0 in /usr/local/lib/python3.12/dist-packages (2.6.0)"},
	},
	"python-package-hash-mismatch": {
		match: []string{
			"ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package versions, please update the hashes.",
			"  ╰─▶ Hash mismatch for `torch==2.6.0`",
		},
		miss: []string{"Collecting torch==2.6.0 (from -r requirements.txt (line 3))"},
	},
	"python-externally-managed-environment": {
		match: []string{"error: externally-managed-environment", "× This environment is externally managed"},
		miss:  []string{"Created virtual environment at: /opt/venv"},
	},
	"cmake-configure-failed": {
		match: []string{
			"CMake Error at CMakeLists.txt:18 (find_package):",
			"-- Configuring incomplete, errors occurred!",
		},
		miss: []string{"-- Configuring done (2.1s)", "CMake Warning at CMakeLists.txt:40 (message):"},
	},
	"nvcc-unsupported-host-compiler": {
		match: []string{
			"/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc versions later than 12 are not supported!",
			"  138 | #error -- unsupported GNU version! gcc versions later than 8 are not supported!",
			"host_config.h:164:2: error: #error -- unsupported clang version! clang version must be less than 17 and greater than 3.2 .",
		},
		miss: []string{"-- The CXX compiler identification is GNU 13.2.0"},
	},
	"native-link-failed": {
		match: []string{
			"collect2: error: ld returned 1 exit status",
			"/usr/bin/ld: cannot find -lcuda: No such file or directory",
			"ops.cu:(.text+0x1a4): undefined reference to `cudaLaunchKernelExC'",
		},
		miss: []string{"[48/48] Linking CXX shared library libcommon_ops.so"},
	},
	"compiler-killed-out-of-memory": {
		match: []string{
			"nvcc error   : 'cicc' died due to signal 9 (Kill signal)",
			"nvcc error   : 'cudafe++' died due to signal 9 (Kill signal)",
			"c++: fatal error: Killed signal terminated program cc1plus",
			"collect2: fatal error: ld terminated with signal 9 [Killed]",
		},
		miss: []string{"nvcc warning : The 'compute_35' architecture is deprecated"},
	},
	"torch-cuda-version-mismatch-build": {
		match: []string{
			"Exception: Installed CUDA version 12.1 does not match the version torch was compiled with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.",
			"The detected CUDA version (12.1) mismatches the version that was used to compile",
			"RuntimeError: The detected CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.4). Please make sure to use the same CUDA versions.",
		},
		miss: []string{"The detected CUDA version (12.4) has a minor version mismatch with the version that was used to compile PyTorch (12.1). Most likely this shouldn't be a problem."},
	},
	"windows-dll-load-failed": {
		match: []string{
			"ImportError: DLL load failed while importing _C: The specified module could not be found.",
			"OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\Python312\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.",
		},
		miss: []string{"Loading DLL C:\\Windows\\System32\\nvcuda.dll"},
	},
	"xpu-level-zero-error": {
		match: []string{
			"RuntimeError: level_zero backend failed with error: 20 (UR_RESULT_ERROR_DEVICE_LOST)",
			"RuntimeError: Native API failed. Native API returns: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)",
			"zeCommandQueueExecuteCommandLists returned ZE_RESULT_ERROR_DEVICE_LOST",
		},
		miss: []string{"[level_zero:gpu][level_zero:0] Intel(R) oneAPI Unified Runtime over Level-Zero, Intel(R) Arc(TM) A770 Graphics 12.55.8 [1.3.29735]"},
	},
	"deepspeed-launcher-rank-failed": {
		match: []string{"[2026-05-28 00:11:09,123] [ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=0'] exits with return code = 1", "[ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=3'] exits with return code = -9"},
		miss:  []string{"[2026-05-28 00:11:09,123] [INFO] [launch.py:256:main] process 4021 spawned with command: ['/usr/bin/python3', '-u', 'train.py', '--local_rank=0']"},
	},
	"torch-elastic-exit-barrier-timeout": {
		match: []string{"torch.distributed.elastic.agent.server.api: [ERROR] Error waiting on exit barrier. Elapsed: 300.07 seconds", "[2026-05-28 00:11:09,123] torch.distributed.elastic.agent.server.api: [ERROR] Error waiting on exit barrier. Elapsed: 1800.1 seconds"},
		miss:  []string{"torch.distributed.elastic.agent.server.api: [INFO] Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish"},
	},
	"python-package-download-failed": {
		match: []string{
			"ERROR: Could not install packages due to an OSError: HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Max retries exceeded with url: /packages/torch-2.6.0.whl",
			"pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='download.pytorch.org', port=443): Read timed out.",
			"  Caused by: Request failed after 3 retries",
		},
		miss: []string{"Downloading torch-2.6.0-cp312-cp312-manylinux_2_28_x86_64.whl (766.7 MB)"},
	},
	"torch-extension-version-skew": {
		match: []string{
			"RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch has CUDA Version=12.4 and torchvision has CUDA Version=11.8.",
			"WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:",
			"WARNING:xformers:WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:",
		},
		miss: []string{"xFormers 0.0.29.post2 built for PyTorch 2.6.0+cu124"},
	},
	"torch-spawn-process-exited": {
		match: []string{
			"torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal SIGKILL",
			"torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with exit code 1",
		},
		miss: []string{"torch.multiprocessing.spawn.ProcessRaisedException: "},
	},
	"deepspeed-accelerator-not-detected": {
		match: []string{
			"[WARNING] [real_accelerator.py:181:get_accelerator] Setting accelerator to CPU. If you have GPU or other accelerator, we were not able to detect it.",
			"[2026-05-28 00:11:09,123] [WARNING] [real_accelerator.py:194:get_accelerator] Setting accelerator to CPU. If you have GPU or other accelerator, we were not able to detect it.",
			"[2026-05-28 00:11:09,123] [WARNING] [real_accelerator.py:222:get_accelerator] Setting accelerator to CPU. If you have GPU or other accelerator, we were unable to detect it.",
		},
		miss: []string{"[2026-05-28 00:11:09,123] [INFO] [real_accelerator.py:219:get_accelerator] Setting ds_accelerator to cuda (auto detect)"},
	},
	"cuda-library-version-skew": {
		match: []string{
			"ImportError: /opt/venv/lib/python3.12/site-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12",
			"libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12",
		},
		miss: []string{"ImportError: /usr/local/lib/python3.12/dist-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"},
	},
	"python-requirement-invalid": {
		match: []string{
			"ERROR: Invalid requirement: 'sglang[all]>=0.4.6,' (from line 3 of requirements.txt)",
			"ERROR: Invalid requirement: 'torch==2.6.0 --index-url https://download.pytorch.org/whl/cu124'",
		},
		miss: []string{"ERROR: Invalid requirement format"},
	},
	"multiprocessing-start-method-already-set": {
		match: []string{
			"RuntimeError: context has already been set",
			"[rank0]: RuntimeError: context has already been set",
		},
		miss: []string{"RuntimeError: the start method has not been set"},
	},
	"nvcc-toolkit-too-old": {
		match: []string{
			"nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
			"nvcc fatal   : Unknown option '--threads'",
		},
		miss: []string{"nvcc fatal   : Unsupported gpu architecture 'compute_120'"},
	},
	"host-compiler-too-old": {
		match: []string{
			"gcc: error: unrecognized command-line option '-std=c++20'; did you mean '-std=c++2a'?",
			"c++: error: unrecognized command line option '-std=c++17'",
			"#error You need C++17 to compile PyTorch",
		},
		miss: []string{"gcc: error: unrecognized command-line option '-mavx512bf16'"},
	},
	"c10d-store-libuv-unavailable": {
		match: []string{
			"torch.distributed.DistStoreError: use_libuv was requested but PyTorch was build without libuv support, run with USE_LIBUV=0 to disable it.",
			"[rank0]: torch.distributed.DistStoreError: use_libuv was requested but PyTorch was build without libuv support",
		},
		miss: []string{"[W socket.cpp:755] [c10d] The server socket has started to listen on [::]:29500 (use_libuv=0)."},
	},
}

// hostWidened are lines of existing records the host vocabularies widened.
var hostWidened = map[string]example{
	"torch-not-compiled-with-cuda": {
		match: []string{"AssertionError: Torch not compiled with XPU enabled", "RuntimeError: PyTorch is not linked with support for xpu devices"},
		miss:  []string{"Torch compiled with CUDA 12.8"},
	},
	"rocm-kfd-not-accessible": {
		match: []string{
			"Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This error may also occur when the core runtime library needs to spawn threads or create internal OS-specific events.",
			"ROCk module is NOT loaded, possibly no GPU devices",
		},
		miss: []string{"ROCk module version 6.8.5 is loaded"},
	},
	"c10d-tcpstore-recv-failed": {
		match: []string{"torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?"},
		miss:  []string{"[W socket.cpp:204] [c10d] The hostname of the client socket cannot be retrieved. err=-3"},
	},
	"cuda-unknown-error": {
		match: []string{"UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero. (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)"},
		miss:  []string{"UserWarning: CUDA initialization: Found no NVIDIA driver on your system."},
	},
	"cuda-toolkit-not-found": {
		match: []string{
			"error: command '/usr/local/cuda/bin/nvcc' failed: No such file or directory",
			"deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile CUDA op(s)",
			"  No CMAKE_CUDA_COMPILER could be found.",
			"  Could NOT find CUDAToolkit (missing: CUDAToolkit_NVCC_EXECUTABLE CUDA_CUDART)",
			"  Failed to find nvcc.",
			"  Compiler requires the CUDA toolkit.  Please set the CUDAToolkit_ROOT variable.",
		},
		miss: []string{"-- Found CUDAToolkit: /usr/local/cuda/include (found version \"12.4.131\")"},
	},
}

func init() { addExamples(hostExamples, hostWidened) }

// hostRoutine are lines the host layers print on a healthy install, build
// or launch, which no record may raise.
var hostRoutine = []string{
	"Successfully installed sglang-0.4.6 torch-2.6.0 flashinfer-python-0.2.5",
	"  Building wheel for flash-attn (setup.py) ... done",
	"  Created wheel for flash-attn: filename=flash_attn-2.7.4.post1-cp312-cp312-linux_x86_64.whl size=187654321",
	"Installed 142 packages in 3.21s",
	"Resolved 142 packages in 1.21s",
	"Solving environment: done",
	"-- The CUDA compiler identification is NVIDIA 12.4.131",
	"-- Configuring done (2.1s)",
	"-- Build files have been written to: /tmp/build",
	"[48/48] Linking CXX shared library libcommon_ops.so",
	"torch.distributed.elastic.agent.server.api: [INFO] Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish",
	"torch.distributed.elastic.agent.server.api: [INFO] Done waiting for other agents. Elapsed: 0.51 seconds",
	"[2026-05-28 00:11:09,123] [INFO] [launch.py:351:main] Process 4021 exits successfully.",
	"[2026-05-28 00:11:09,123] [INFO] [real_accelerator.py:219:get_accelerator] Setting ds_accelerator to cuda (auto detect)",
	"[WARNING]  async_io requires the dev libaio .so object and headers but these were not found.",
	"[WARNING]  async_io: please install the libaio-dev package with apt",
	"[WARNING]  If libaio is already installed (perhaps from source), try setting the CFLAGS and LDFLAGS environment variables to where it can be found.",
	"  Downloading torch-2.6.0-cp312-cp312-manylinux_2_28_x86_64.whl (766.7 MB)",
	"The following values were not passed to `accelerate launch` and had defaults used instead:",
	"torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 4022 closing signal SIGTERM",
	"W0528 00:11:09.123000 4021 torch/distributed/run.py:792] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed.",
}

// TestHostRoutineLinesDoNotAlert checks the host layers' healthy lines
// raise no failure record.
func TestHostRoutineLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), hostRoutine)
}

// TestHostIncidents checks whole host outputs page once, led by their
// cause: a build that failed inside pip, the resolver's report, a
// launcher's summary after a rank's own error, and a healthy install.
func TestHostIncidents(t *testing.T) {
	tests := []incidentCase{
		{
			name: "a wheel build whose compiler was killed",
			lines: []string{
				"Building wheels for collected packages: flash-attn",
				"  Building wheel for flash-attn (setup.py) ... error",
				"  error: subprocess-exited-with-error",
				"  ",
				"  × python setup.py bdist_wheel did not run successfully.",
				"  │ exit code: 1",
				"  ╰─> [3 lines of output]",
				"      nvcc error   : 'cicc' died due to signal 9 (Kill signal)",
				"      ninja: build stopped: subcommand failed.",
				"      [end of output]",
				"  ",
				"  note: This error originates from a subprocess, and is likely not a problem with pip.",
				"  ERROR: Failed building wheel for flash-attn",
				"Failed to build flash-attn",
				"ERROR: Could not build wheels for flash-attn, which is required to install pyproject.toml-based projects",
			},
			lead: "compiler-killed-out-of-memory", incidents: 1, folded: "python-package-build-failed",
		},
		{
			name: "the resolver's conflict report",
			lines: []string{
				"ERROR: Cannot install sglang==0.4.6 and torch==2.7.0 because these package versions have conflicting dependencies.",
				"",
				"The conflict is caused by:",
				"    The user requested torch==2.7.0",
				"    sglang 0.4.6 depends on torch==2.6.0",
				"",
				"ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts",
			},
			lead: "python-dependency-resolution-failed", incidents: 1,
		},
		{
			name: "DeepSpeed's launcher after a rank's own error",
			lines: []string{
				"[2026-05-28 00:11:08,900] [INFO] [launch.py:256:main] process 4021 spawned with command: ['/usr/bin/python3', '-u', 'train.py', '--local_rank=0']",
				"Traceback (most recent call last):",
				`  File "/app/train.py", line 42, in <module>`,
				"    model.to(device)",
				"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.",
				"[2026-05-28 00:11:09,123] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 4021",
				"[2026-05-28 00:11:09,123] [ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=0'] exits with return code = 1",
			},
			lead: "cuda-out-of-memory", incidents: 1, folded: "deepspeed-launcher-rank-failed",
		},
		{
			name:  "a healthy install and launch",
			lines: hostRoutine,
		},
	}
	checkIncidents(t, "host.log", tests)
}
