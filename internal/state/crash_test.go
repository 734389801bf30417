package state

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
// "a", so removals are interrupted as well as commits. After every second
// batch it delivers a group of "b" (deliverGroup), so a kill also lands
// between the members of a group and between a group's sends and its
// Settle.
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
	sent, err := os.OpenFile(filepath.Join(dir, crashSentLog), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := sent.WriteString("start\n"); err != nil {
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
		if i%2 == 0 {
			if err := deliverGroup(s, sent, int(1+i%crashMaxGroup), i%5 == 0); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	}
}

// crashSentLog is the helper's record of what its pretend sink received,
// and crashMaxGroup the most items one group delivers.
const (
	crashSentLog  = "sent.log"
	crashMaxGroup = 8
)

// deliverGroup is a delivery round of sink "b" as the pipeline makes one:
// Peek up to n items, send each (a line "sent <seq>" in the log) and
// journal its ack before the next member is looked at, then Settle the
// whole group in one transaction and log "settled". With fail, the group's last member fails
// ("failed <seq>") and is deferred, ready again at once, in the same
// Settle.
func deliverGroup(s *Store, log *os.File, n int, fail bool) error {
	items, _, err := s.Peek("b", n)
	if err != nil || len(items) == 0 {
		return err
	}
	var st Settlement
	for j, it := range items {
		if fail && j == len(items)-1 {
			if _, err := fmt.Fprintf(log, "failed %d\n", it.Seq); err != nil {
				return err
			}
			st.Defers = append(st.Defers, Deferral{Seq: it.Seq, Attempts: it.Attempts + 1})
			continue
		}
		if _, err := fmt.Fprintf(log, "sent %d\n", it.Seq); err != nil {
			return err
		}
		if err := s.JournalAck("b", it.Seq); err != nil {
			return err
		}
		st.Acks = append(st.Acks, it.Seq)
	}
	if _, err := s.Settle("b", st); err != nil {
		return err
	}
	_, err = log.WriteString("settled\n")
	return err
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
	firstB := check("b", 0, func(i int64) uint64 { return uint64(2*i - 1 + 1) })
	checkGroups(t, dir, n, firstB)
	first := check("a", 0, func(i int64) uint64 { return uint64(2*i - 1) })
	// "a" loses its head to acks, at most one per three batches.
	if acked := first - 1; acked > n/3 {
		t.Errorf("sink a: %d items gone, but only %d acks can have happened", acked, n/3)
	}
	return n
}

// sentGroup is one delivery round of "b" as the helper logged it.
type sentGroup struct {
	sent, failed []uint64
	settled      bool // the helper logged that Settle returned
	cut          bool // a kill ended the group before its Settle returned
	last         bool // the last group of the last helper run
}

// readSentLog parses the helper's sent log into groups.
func readSentLog(t *testing.T, dir string) []*sentGroup {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, crashSentLog))
	if err != nil {
		t.Fatal(err)
	}
	var groups []*sentGroup
	var cur *sentGroup
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		word, arg, _ := strings.Cut(line, " ")
		switch word {
		case "start", "settled":
			if cur != nil {
				cur.settled = word == "settled"
				cur.cut = word == "start"
			}
			cur = nil
		case "sent", "failed":
			seq, err := strconv.ParseUint(arg, 10, 64)
			if err != nil {
				t.Fatalf("%s:%d: %q: %v", crashSentLog, i+1, line, err)
			}
			if cur == nil {
				cur = &sentGroup{}
				groups = append(groups, cur)
			}
			if word == "sent" {
				cur.sent = append(cur.sent, seq)
			} else {
				cur.failed = append(cur.failed, seq)
			}
		default:
			if line != "" {
				t.Fatalf("%s:%d: unexpected line %q", crashSentLog, i+1, line)
			}
		}
	}
	if cur != nil {
		cur.last, cur.cut = true, true
	}
	return groups
}

// checkGroups checks the grouped acknowledgements of sink "b" against what
// the helper sent, with n batches committed and "b"'s queue holding the
// items of batches first..n:
//
//   - an item sent in a group whose Settle returned is never queued again:
//     an ack is durable once Settle returns;
//   - in a group the kill cut short, every item sent before the last was
//     journaled, so the next Open removes it;
//   - nothing is lost: every item that left the queue was sent;
//   - an item is sent twice only when its first send was the last one
//     before a kill (between the send and its JournalAck): a kill -9
//     repeats at most one alert, wherever it lands in a group.
func checkGroups(t *testing.T, dir string, n, first int64) {
	t.Helper()
	queued := func(seq uint64) bool { return seq >= uint64(2*first) }
	sentIn := map[uint64][]*sentGroup{}
	for _, g := range readSentLog(t, dir) {
		for _, seq := range g.sent {
			sentIn[seq] = append(sentIn[seq], g)
		}
		if g.settled {
			for _, seq := range g.sent {
				if queued(seq) {
					t.Errorf("item %d is queued again after its group's Settle returned", seq)
				}
			}
		}
		if g.last && !g.settled && len(g.sent) > 0 {
			// Every member but the one in flight was journaled, so the
			// Open that checks replayed it.
			for _, seq := range g.sent[:len(g.sent)-1] {
				if queued(seq) {
					t.Errorf("item %d of the group the kill cut short is still queued though its ack was journaled", seq)
				}
			}
		}
	}
	for i := int64(1); i < first; i++ {
		if seq := uint64(2 * i); len(sentIn[seq]) == 0 {
			t.Errorf("item %d (batch %d) left the queue without being sent", seq, i)
		}
	}
	for seq, gs := range sentIn {
		for _, g := range gs[:len(gs)-1] {
			if g.settled || g.sent[len(g.sent)-1] != seq || !g.cut {
				t.Errorf("item %d was sent again, though it was not the send a kill interrupted", seq)
			}
		}
	}
}
