package source

import (
	"syscall"
	"unsafe"
)

// sysRead is read(2) on fd as a raw system call, retried when a signal
// interrupts it. The runtime is not told of a raw call, so it does not
// wake the runtime's system monitor (design.md, Wake-ups); the flow's
// clock, the name watch and the raw file reads all read this way. p must
// not be empty.
func sysRead(fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e != syscall.EINTR {
			return int(n), e
		}
	}
}
