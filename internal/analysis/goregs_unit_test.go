package analysis

import (
	"strings"
	"testing"
)

// TestGoRegister reads the lines of Go's dumpregs on amd64 and arm64 and
// no other register listing.
func TestGoRegister(t *testing.T) {
	for l, want := range map[string]string{
		"rax    0x0":            "rax",
		"r15    0x77f61c000c60": "r15",
		"rip    0x77f67e49eb1c": "rip",
		"rflags 0x246":          "rflags",
		"r29     0x16fdfe7d8":   "r29",
		"fault   0x18e55d5b0":   "fault",
		"rip            0x401136            0x401136 <main+4>": "",
		"eflags         0x246               [ IF ZF PF ]":      "",
		"RIP: 0033:0x7f5b1c0e4f3b":                             "",
		"rip = 0x0000000100003f40":                             "",
		"r100   0x1":                                           "",
		"rip    0x":                                            "",
		"rip    0xZZ":                                          "",
		"rip":                                                  "",
	} {
		got, ok := goRegister(l)
		if got != want || ok != (want != "") {
			t.Errorf("goRegister(%q) = %q, %v; want %q", l, got, ok, want)
		}
	}
}

// FuzzGoRegister: goRegister never panics and reads only a name, spaces
// and a hex value.
func FuzzGoRegister(f *testing.F) {
	for _, s := range []string{"rax    0x0", "rflags 0x246", "fault   0x18e55d5b0", "rip            0x401136            0x401136 <main+4>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		name, ok := goRegister(l)
		if ok && (!strings.HasPrefix(l, name+" ") || !strings.Contains(l, " 0x") || strings.Count(strings.TrimSpace(l[len(name):]), " ") != 0) {
			t.Fatalf("goRegister(%q) = %q: not one register's line", l, name)
		}
	})
}
