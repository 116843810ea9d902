package gcp

import (
	"context"
	"encoding"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// SaveFile writes m to path in the format of MarshalBinary, atomically: it
// writes a temporary file in the same directory, flushes it to disk,
// renames it over path and flushes the directory. Readers of path see the
// old file or the new one, never a mix. A failed write leaves the old file
// intact and removes the temporary file; a crash leaves the old file intact
// and at worst a stray ".<name>.tmp*" file. The file keeps the permission
// bits of the file it replaces; a new file gets 0644. If path is a
// symbolic link, the file it points to is replaced, or created if the link
// dangles, and the link kept. An existing path that is not a regular file
// (or a link to one), such as a directory, a device like /dev/null or a
// FIFO, gives ErrNotRegular and is left alone.
func SaveFile[T Float](path string, m *Model[T]) error {
	return SaveFileContext(context.Background(), path, m)
}

// SaveFileContext is SaveFile, stopped by ctx: if ctx is done before the
// new file is complete, it removes the temporary file, leaves path as it
// was and returns ctx.Err(). It writes in chunks of saveChunk bytes and
// checks ctx between them, so that a command can end the save of a large
// model promptly on SIGINT (see signal.NotifyContext) without leaving a
// temporary file as large as the model behind.
func SaveFileContext[T Float](ctx context.Context, path string, m *Model[T]) error {
	return SaveMarshaled(ctx, path, m)
}

// SaveMarshaled writes the bytes of m's MarshalBinary to path as
// SaveFileContext writes a Model's: atomically, stopped by ctx. It saves
// the models of package bayes, which are no Model[T], with the same
// guarantees.
func SaveMarshaled(ctx context.Context, path string, m encoding.BinaryMarshaler) error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, func(w io.Writer) error {
		for len(b) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			n, err := w.Write(b[:min(len(b), saveChunk)])
			if err != nil {
				return err
			}
			b = b[n:]
		}
		return ctx.Err()
	})
}

// saveChunk is how many bytes SaveFileContext writes between two checks
// of its context: 4 MiB, a few milliseconds of disk bandwidth.
const saveChunk = 4 << 20

// CheckSaveFile reports whether SaveFile could write path, without
// writing it, so that a program can refuse a bad output path before a
// long training rather than after it. It returns ErrNotRegular for an
// existing path (or link target) that is not a regular file, and the
// error of creating a file in the directory that would hold the model,
// for example one that is missing or not writable; it creates and removes
// a temporary file there to find out.
func CheckSaveFile(path string) error {
	target, err := saveTarget(path)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// saveTarget returns the file SaveFile replaces for path: path itself or,
// if path is a symbolic link, the end of its chain of links, which need
// not exist (a dangling link). Only the last element is followed, as the
// rename into its directory works through links in the directories. It
// returns an error wrapping ErrNotRegular if the file exists and is not a
// regular file.
func saveTarget(path string) (string, error) {
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.Mode().IsRegular() {
				return "", fmt.Errorf("%w: %s is %v", ErrNotRegular, path, fi.Mode().Type())
			}
			return path, nil
		}
		if hops == maxLinks {
			return "", fmt.Errorf("gcp: %s: more than %d symbolic links", path, maxLinks)
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
}

// maxLinks is how many symbolic links saveTarget follows before it gives
// up on a loop, Linux's limit for one path.
const maxLinks = 40

// LoadFile reads the model saved at path by SaveFile or WriteTo. Besides
// the errors of UnmarshalBinary it returns those of opening and reading
// the file, and ErrFormat if the file holds bytes after the model. It
// reads the header before the rest, so a large file that is not a model
// is rejected without being read.
func LoadFile[T Float](path string) (*Model[T], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := new(Model[T])
	if _, err := m.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("gcp: loading %s: %w", path, err)
	}
	var extra [1]byte
	switch _, err := io.ReadFull(f, extra[:]); err {
	case io.EOF:
		return m, nil
	case nil:
		return nil, fmt.Errorf("%w: %s holds bytes after the model's end", ErrFormat, path)
	default:
		return nil, fmt.Errorf("gcp: loading %s: %w", path, err)
	}
}

// writeFileAtomic replaces path with what write writes, through a
// temporary file renamed over it; SaveFile documents the guarantees. Tests
// pass a failing write to check that the old file survives.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	path, err := saveTarget(path) // replace the file a link points to, not the link
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
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
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
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
