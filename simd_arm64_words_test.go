package gcp

// TestNEONWords checks the hand-encoded instructions of simd_arm64.s. The
// Go assembler has no vector FADD, FMUL, FDIV, FSQRT, FMAX, FADDP, ...
// (and VADD on .S4 is an integer add), so the file writes them as
//
//	WORD $0x4E22D420 // FADD V0.4S, V1.4S, V2.4S
//
// or, inside a #define (where a // comment would swallow the line
// continuation), as
//
//	WORD $0x4E22D420 /* FADD V0.4S, V1.4S, V2.4S */; \
//
// The test assembles the file for arm64, runs `go tool objdump -gnu` on
// the object file, and requires, for every WORD line of the
// source, that the disassembler shows the same word at that line and that
// its GNU (ARM) syntax equals the comment up to an optional "; note". The
// assembler attributes a macro's instructions to the line that invokes
// it, so there the test requires the WORDs of the macro's expansion
// (nested macros included), in order. It also rejects integer vector
// arithmetic (add, sub, mul, mla, mls on vector registers) anywhere in the
// file, the mistake the WORDs avoid.
//
// The test has no build constraint: it runs on the CI host (amd64) as part
// of `go test ./...`, needing only the go command, since assembling
// and disassembling arm64 code needs neither an arm64 machine nor qemu.
// Under qemu (GOARCH=arm64 go test -exec qemu-aarch64-static) it runs too,
// invoking the host's go command.

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// goCommand returns the path of the go command that runs the tests.
func goCommand(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no go command in PATH or GOROOT (%s): TestNEONWords needs it to assemble and disassemble simd_arm64.s", p)
	}
	return p
}

// normAsm lower-cases an instruction and collapses its white space.
func normAsm(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

func TestNEONWords(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("%s cannot start processes, and the test runs the go command", runtime.GOOS)
	}
	const file = "simd_arm64.s"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	type word struct {
		enc  string // 8 lower-case hex digits
		want string // the comment's instruction, normalized
	}
	// want holds, for each source line outside a #define, the WORDs the
	// assembler must emit there: the line's own, or its macro's expansion.
	want := map[int][]word{}
	macros := map[string][]word{}  // the expansion of each multi-line macro
	calls := map[string][]string{} // the macros each macro's body invokes
	reached := map[string]bool{}   // macros expanded, directly or nested, at a line outside a #define
	var reach func(name string)
	reach = func(name string) {
		if !reached[name] {
			reached[name] = true
			for _, c := range calls[name] {
				reach(c)
			}
		}
	}
	wordRE := regexp.MustCompile(`^\s*WORD\s+\$0x([0-9A-Fa-f]{8})\s*(?://\s*([^;]+).*|/\*\s*([^;*]+)[^*]*\*/\s*;?\s*\\?\s*)$`)
	defineRE := regexp.MustCompile(`^#define\s+(\w+)(?:\([^)]*\))?\s*\\$`)
	var macro string // the macro being defined, if any
	var body []word
	for i, line := range strings.Split(string(src), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "//") {
			continue
		}
		if m := defineRE.FindStringSubmatch(trimmed); m != nil && macro == "" {
			macro, body = m[1], nil
			continue
		}
		var ws []word
		if strings.Contains(line, "WORD") {
			m := wordRE.FindStringSubmatch(line)
			switch {
			case m == nil:
				t.Errorf("%s:%d: WORD without the form `WORD $0x%%08X // INSTRUCTION` (or /* INSTRUCTION */ in a macro): %s", file, i+1, trimmed)
			case macro != "" && m[2] != "":
				t.Errorf("%s:%d: WORD with a // comment in a macro, which swallows the line continuation: %s", file, i+1, trimmed)
			default:
				ws = []word{{enc: strings.ToLower(m[1]), want: normAsm(m[2] + m[3])}}
			}
		} else {
			stmt, _, _ := strings.Cut(strings.TrimSuffix(trimmed, `\`), "//")
			name, _, _ := strings.Cut(strings.TrimSuffix(strings.TrimSpace(stmt), ";"), "(") // NAME or NAME(args)
			name = strings.TrimSpace(name)
			if ws = macros[name]; len(ws) > 0 {
				if macro == "" {
					reach(name)
				} else {
					calls[macro] = append(calls[macro], name)
				}
			}
		}
		if macro == "" {
			if len(ws) > 0 {
				want[i+1] = ws
			}
			continue
		}
		body = append(body, ws...)
		if !strings.HasSuffix(trimmed, `\`) {
			macros[macro], macro = body, ""
		}
	}
	if len(want) == 0 {
		t.Fatalf("%s has no WORD lines", file)
	}
	// A macro whose WORDs no line outside a #define expands (unused, or
	// invoked in a way the scan above does not recognize, such as through
	// a macro parameter) would go unchecked.
	for name, ws := range macros {
		if len(ws) > 0 && !reached[name] {
			t.Errorf("%s: the WORDs of macro %s are never expanded where the test can follow them", file, name)
		}
	}

	// Assemble the file alone: the object file holds every function it
	// defines, with each instruction's source line, and needs no arm64
	// build of the package and the standard library (a minute and a half
	// on a busy 2-core machine with a cold build cache; this takes under a
	// second).
	goCmd := goCommand(t)
	root, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "simd_arm64.o")
	build := exec.Command(goCmd, "tool", "asm", "-p", "github.com/gcpnet/gcp",
		"-I", filepath.Join(strings.TrimSpace(string(root)), "pkg", "include"),
		"-D", "GOOS_linux", "-D", "GOARCH_arm64", "-o", bin, file)
	build.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOARCH=arm64 go tool asm %s: %v\n%s", file, err, out)
	}
	// Disassemble the functions the file defines (TEXT ·name(SB)).
	var funcs []string
	for _, m := range regexp.MustCompile(`(?m)^TEXT\s+·(\w+)\(SB\)`).FindAllStringSubmatch(string(src), -1) {
		funcs = append(funcs, m[1])
	}
	dis := exec.Command(goCmd, "tool", "objdump", "-gnu", "-s", `\.(`+strings.Join(funcs, "|")+`)(\.abi0)?$`, bin)
	out, err := dis.Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}

	// "  simd_arm64.s:123  0x1234  4e22d420  FADD V2.S4, V1.S4, V0.S4  // fadd v0.4s, v1.4s, v2.4s"
	lineRE := regexp.MustCompile(`^\s*` + regexp.QuoteMeta(file) + `:(\d+)\s+0x[0-9a-f]+\s+([0-9a-f]{8})\s+(.*?)\s+//\s+(.*?)\s*$`)
	intVec := regexp.MustCompile(`^(add|sub|mul|mla|mls) v\d+\.`)
	next := map[int]int{} // per line, how many of its WORDs were found
	checked := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := lineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ln, _ := strconv.Atoi(m[1])
		enc, gnu := m[2], normAsm(m[4])
		if intVec.MatchString(gnu) {
			t.Errorf("%s:%d: integer vector arithmetic %q (%s) in a floating-point kernel", file, ln, gnu, m[3])
		}
		ws := want[ln]
		k := next[ln]
		if k == len(ws) || enc != ws[k].enc {
			continue // an instruction of the assembler's own
		}
		next[ln]++
		checked++
		if gnu != ws[k].want {
			t.Errorf("%s:%d: WORD $0x%s decodes to %q, comment says %q", file, ln, enc, gnu, ws[k].want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for ln, ws := range want {
		if k := next[ln]; k < len(ws) {
			t.Errorf("%s:%d: WORD $0x%s (%s) not found at this line of the arm64 object file (%d of %d found)", file, ln, ws[k].enc, ws[k].want, k, len(ws))
		}
	}
	t.Logf("checked %d WORDs of %s against the disassembly", checked, file)
}
