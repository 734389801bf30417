//go:build !(linux && (amd64 || arm64))

package source

import (
	"errors"
	"os"
	"time"
)

// Raw reads are made only on Linux on amd64 and arm64 (rawio_linux.go);
// elsewhere every file keeps the ordinary calls.

var errNoRaw = errors.New("no raw reads on this system")

func rawDescriptor(*os.File) int { return -1 }

func rawRead(int, []byte) (int, error) { return 0, errNoRaw }

func rawPread(int, []byte, int64) (int, error) { return 0, errNoRaw }

func rawFstat(int) (int64, time.Time, error) { return 0, time.Time{}, errNoRaw }
