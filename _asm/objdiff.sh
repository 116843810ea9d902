#!/usr/bin/env bash
# objdiff.sh OLD.s NEW.s [GOARCH]: assembles both files and compares the
# machine code of every TEXT symbol, byte for byte (with go tool objdump on
# the unlinked objects, so that RIP-relative references show as relocations
# to a named symbol instead of layout-dependent displacements). It prints
# one line per function, "same" or "DIFFERENT", then compares every DATA
# symbol as bytes, and exits 1 if anything differs.
#
# avo drops register self-moves (MOVQ R13, R13), which the hand-written
# file of be77f7d has through its row-pointer macros (GB_ROWPTR(R13, R13,
# …), GD_ROWPTR(GD_B0, GD_B0, …)); OLD is compared with those no-ops taken
# out, and the script says how many it took out.
#
#	bash _asm/objdiff.sh <(git show be77f7d:simd_amd64.s) simd_amd64.s
#	bash _asm/objdiff.sh <(git show be77f7d:simd_arm64.s) simd_arm64.s arm64
set -euo pipefail
old=$1 new=$2 arch=${3:-amd64}
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT; [ -n "${KEEP:-}" ] && echo "tmp: $tmp"
inc=$(go env GOROOT)/pkg/include
for v in old new; do
	src=${!v}
	if [ $v = old ]; then
		# A row-pointer macro whose source and destination are the same
		# register starts with a self-move: call a copy without it.
		sed -E 's/^(\s*)(G[BD])_ROWPTR\((\w+), \3,/\1\2_ROWPTR_SAME(\3, \3,/' "$src" |
			sed '/^#include "textflag.h"/a\
#define GB_ROWPTR_SAME(src, dst, stride, r) LEAQ (src)(stride*1), AX; CMPQ CX, $r; CMOVQGT AX, dst\
#define GD_ROWPTR_SAME(src, dst, stride, r) LEAQ (src)(stride*1), BX; CMPQ CX, $r; CMOVQGT BX, dst' >"$tmp/$v.s"
		echo "self-moves taken out of OLD: $(grep -c '^\s*G[BD]_ROWPTR_SAME(' "$tmp/$v.s" || true)"
	else
		cp "$src" "$tmp/$v.s"
	fi
	GOARCH=$arch go tool asm -I "$inc" -p github.com/gcpnet/gcp -D GOOS_linux -D "GOARCH_$arch" \
		-o "$tmp/$v.o" "$tmp/$v.s"
	# Per function: bytes and relocation of every instruction.
	go tool objdump "$tmp/$v.o" | awk -F'\t' -v dir="$tmp/$v" '
		/^TEXT / { split($0, a, "[ .(]"); name = a[4]; sub(/^gcp\./, "", name); fn = dir "." name; next }
		fn != "" {
			n = 0; for (i = 1; i <= NF; i++) if ($i != "") f[++n] = $i
			if (n < 3) next
			rel = f[n]; if (rel !~ /R_/) rel = ""
			print f[3], rel > fn
		}'
done
status=0
# The constants: every DATA of both files as bytes, symbol by symbol.
python3 - "$tmp/old.s" "$tmp/new.s" <<'PY' || status=1
import re, struct, sys
def data(path):
    syms = {}
    for line in open(path):
        m = re.match(r'\s*DATA\s+(\w+)<>\+(\d+)\(SB\)/(\d),\s*\$\(?([^)\s]+)\)?', line)
        if not m:
            continue
        name, off, size, v = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        if '.' in v or 'e' in v.lower() and not v.lower().startswith('0x'):
            b = struct.pack('<f' if size == 4 else '<d', float(v))
        else:
            b = (int(v, 0) & (1 << 8 * size) - 1).to_bytes(size, 'little')
        buf = syms.setdefault(name, bytearray())
        buf[len(buf):off + size] = bytes(max(0, off + size - len(buf)))
        buf[off:off + size] = b
    return syms
old, new = data(sys.argv[1]), data(sys.argv[2])
bad = 0
for name in sorted(set(old) | set(new)):
    if old.get(name) != new.get(name):
        print(f"DATA {name}: DIFFERENT"); bad = 1
print(f"DATA: {len(old)} symbols in OLD, {len(new)} in NEW, {'all identical' if not bad else 'some differ'}")
sys.exit(bad)
PY
for f in "$tmp"/old.*; do
	name=${f#"$tmp"/old.}
	[ "$name" = o ] || [ "$name" = s ] && continue
	if [ ! -f "$tmp/new.$name" ]; then
		echo "$name: MISSING in new"; status=1
	elif cmp -s "$f" "$tmp/new.$name"; then
		echo "$name: same ($(wc -l <"$f") instructions)"
	else
		echo "$name: DIFFERENT"; status=1
	fi
done
for f in "$tmp"/new.*; do
	name=${f#"$tmp"/new.}
	[ "$name" = o ] || [ "$name" = s ] && continue
	[ -f "$tmp/old.$name" ] || { echo "$name: only in new"; status=1; }
done
exit $status
