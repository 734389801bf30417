package state

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/source"
)

// crashHelperEnv names the environment variable that turns the test binary
// into the crash helper: a process that commits batches in a loop until it
// is killed.
const crashHelperEnv = "LOGMATCH_STATE_CRASH_HELPER_DIR"

var crashFile = fid(7, 7, "crash")

// crashHelper continues from the stored checkpoint: batch i moves the file
// offset to 100*i, sets the grouping blob to i and queues payload i for
// sinks "a" and "b"; after every third batch it acks the oldest item of
// "a", so removals are interrupted as well as commits.
func crashHelper(dir string) int {
	s, err := Open(dir, Options{LockTimeout: 10 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c, _, err := s.File(crashFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	for i := c.Offset/100 + 1; ; i++ {
		p := []byte(strconv.FormatInt(i, 10))
		_, err := s.Commit(Batch{
			Files:    []Checkpoint{{Checkpoint: source.Checkpoint{File: crashFile, Offset: 100 * i}, Path: "crash.log"}},
			Grouping: &Grouping{Version: 1, Data: p},
			Enqueue:  []Enqueue{{Sink: "a", Payload: p}, {Sink: "b", Payload: p}},
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i%3 == 0 {
			items, _, err := s.Peek("a", 1)
			if err == nil && len(items) == 1 {
				_, err = s.Ack("a", items[0].Seq)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	}
}

// TestCrash kills the helper with SIGKILL at random moments and checks,
// after each kill, that the store holds exactly the committed batches:
// every committed offset has its alerts, no alert exists without its
// offset, and sequence ids follow enqueue order.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	dir := t.TempDir()
	var last int64
	for round := range 6 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashHelperEnv+"="+dir)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || line != "ready\n" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("round %d: helper said %q, %v", round, line, err)
		}
		time.Sleep(time.Duration(20+rand.IntN(200)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: helper ended on its own: %v", round, err)
		}
		n := checkCrashInvariants(t, dir)
		t.Logf("round %d: %d batches committed", round, n)
		if n < last {
			t.Fatalf("round %d: checkpoint went back from %d to %d", round, last, n)
		}
		last = n
	}
	if last == 0 {
		t.Error("the helper never committed a batch")
	}
}

// checkCrashInvariants opens the store the helper left and returns the
// number of the last committed batch.
func checkCrashInvariants(t *testing.T, dir string) int64 {
	t.Helper()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}()
	c, ok, err := s.File(crashFile)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return 0
	}
	if c.Offset%100 != 0 {
		t.Fatalf("offset %d is not one the helper wrote", c.Offset)
	}
	n := c.Offset / 100
	g, ok, err := s.Grouping()
	if err != nil || !ok || string(g.Data) != strconv.FormatInt(n, 10) {
		t.Errorf("grouping %q (ok %v, err %v) does not belong to batch %d", g.Data, ok, err, n)
	}
	check := func(sink string, wantFirst int64, seqOf func(i int64) uint64) int64 {
		items, drops, err := s.Peek(sink, int(n)+10)
		if err != nil {
			t.Fatal(err)
		}
		if len(drops) != 0 {
			t.Errorf("sink %s: unexpected drops %v", sink, drops)
		}
		first := n + 1 - int64(len(items))
		if wantFirst > 0 && first != wantFirst {
			t.Errorf("sink %s: queue starts at batch %d, want %d", sink, first, wantFirst)
		}
		for j, it := range items {
			i := first + int64(j)
			if string(it.Payload) != strconv.FormatInt(i, 10) {
				t.Fatalf("sink %s: item %d has payload %q, want %d (batch %d committed)", sink, j, it.Payload, i, n)
			}
			if it.Seq != seqOf(i) {
				t.Fatalf("sink %s: batch %d has seq %d, want %d", sink, i, it.Seq, seqOf(i))
			}
		}
		return first
	}
	// Every batch enqueues to a then b, so batch i holds seqs 2i-1 and 2i.
	check("b", 1, func(i int64) uint64 { return uint64(2*i - 1 + 1) })
	first := check("a", 0, func(i int64) uint64 { return uint64(2*i - 1) })
	// "a" loses its head to acks, at most one per three batches.
	if acked := first - 1; acked > n/3 {
		t.Errorf("sink a: %d items gone, but only %d acks can have happened", acked, n/3)
	}
	return n
}
