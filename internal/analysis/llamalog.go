package analysis

import "strings"

// llama.cpp's common logger (llama-server, llama-cli and the tools built
// on common/log.cpp) prints, with its timestamps and prefixes on (as
// llama-server's --log-timestamps and --log-prefix set them, and its
// router's children run), "<minutes>.<seconds>.<ms>.<us> <L> <message>",
// L being I, W, E or D: "0.02.693.199 E common_sampler_init: error
// initializing grammar sampler for grammar:". The entry package reads no
// level in it: a journal's prefix or the router's "[37747] " stands
// before it, and the time is the process's age, not a clock. Its E is
// the program's own error level; W, I and D lines are no failure.

// llamaLogError reports whether l opens with llama.cpp's timed log
// prefix (see above) at level E, after the router's "[<pid>] " for a
// child's line or not.
func llamaLogError(l string) bool {
	if len(l) > 0 && l[0] == '[' {
		end := 1
		for end < len(l) && isDigitByte(l[end]) {
			end++
		}
		if end == 1 || !strings.HasPrefix(l[end:], "] ") {
			return false
		}
		l = l[end+2:]
	}
	return llamaLogLevel(l) == 'E'
}

// llamaLogStart is the byte test before llamaLogError: the line opens
// with a digit or a bracket.
func llamaLogStart(l string) bool {
	return l != "" && (isDigitByte(l[0]) || l[0] == '[')
}

// llamaLogLevel returns the level letter of llama.cpp's timed log prefix
// l opens with, 0 when l does not open with one: digits, then dot-led
// fields of two, three and three digits, a space, one upper-case letter
// and a space.
func llamaLogLevel(l string) byte {
	i := 0
	for i < len(l) && i < 6 && isDigitByte(l[i]) {
		i++
	}
	if i == 0 {
		return 0
	}
	for _, w := range [...]int{2, 3, 3} {
		if i+1+w > len(l) || l[i] != '.' {
			return 0
		}
		for k := i + 1; k <= i+w; k++ {
			if !isDigitByte(l[k]) {
				return 0
			}
		}
		i += 1 + w
	}
	if i+3 > len(l) || l[i] != ' ' || l[i+2] != ' ' {
		return 0
	}
	switch c := l[i+1]; c {
	case 'I', 'W', 'E', 'D':
		return c
	}
	return 0
}
