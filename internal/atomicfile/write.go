package atomicfile

import (
	"context"
	"encoding"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// Write replaces t's file with what write writes, atomically: to a
// temporary file in the same directory, flushed to disk, then renamed
// over the file, and the directory flushed, so that readers see the old
// file or the new one, never a mix. If t.Path is a symbolic link, the
// file at the end of its links is replaced, or created if the link
// dangles, and the link kept. The new file keeps the permission bits of
// the one it replaces; a new file gets 0644.
//
// It refuses what Check refuses, before writing and again right before
// the rename. ctx stops it: write's writer checks ctx every chunk bytes,
// and Write checks it once more after the flush, right before the rename,
// so that a cancel (a command's SIGINT) at any moment before the file is
// replaced leaves it as it was. On any error Write removes the temporary
// file and leaves t's file intact; a crash leaves it intact and at worst
// a stray ".NAME.tmp*" file.
func (t Target) Write(ctx context.Context, write func(io.Writer) error) error {
	file, perm, err := t.resolve()
	if err != nil {
		return err
	}
	dir := filepath.Dir(file)
	f, err := os.CreateTemp(dir, tempPattern(file))
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(ctxWriter{ctx, f})
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ctx.Err() // a cancel during the flush
	}
	if err == nil {
		err = t.unchanged(file)
	}
	if err == nil {
		err = os.Rename(tmp, file)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

// WriteMarshaled is Write of the bytes of m's MarshalBinary: a saved
// model of the root package or of package bayes. It returns
// MarshalBinary's error, having touched nothing, if m cannot be encoded.
func (t Target) WriteMarshaled(ctx context.Context, m encoding.BinaryMarshaler) error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	return t.Write(ctx, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// unchanged returns the error of resolving t again, or an error if it
// now names another file than file: something replaced the path, or a
// link in it, while Write wrote.
func (t Target) unchanged(file string) error {
	again, _, err := t.resolve()
	if err == nil && again != file {
		err = fmt.Errorf("gcp: %s now names %s, not %s: it changed during the save", t.Path, again, file)
	}
	return err
}

// chunk is how many bytes a ctxWriter writes between two checks of its
// context: 4 MiB, a few milliseconds of disk bandwidth, so that a save of
// a large model ends promptly on a cancel without leaving a temporary
// file as large as the model behind for long.
const chunk = 4 << 20

// ctxWriter writes to w in chunks, and stops with ctx's error once ctx
// is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (n int, err error) {
	for len(p) > 0 {
		if err := c.ctx.Err(); err != nil {
			return n, err
		}
		k, err := c.w.Write(p[:min(len(p), chunk)])
		n, p = n+k, p[k:]
		if err != nil {
			return n, err
		}
	}
	return n, c.ctx.Err()
}

// syncDir flushes the entries of dir to disk, so that a rename into it
// survives a crash. Windows cannot flush a directory handle (os.Open opens
// it read-only, and FlushFileBuffers needs write access), so there
// syncDir does nothing and the rename is as durable as the file system
// makes it.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
