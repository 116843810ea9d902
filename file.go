package gcp

import (
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
// symbolic link, the file it points to is replaced and the link kept.
func SaveFile[T Float](path string, m *Model[T]) error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

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
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target // replace the file a link points to, not the link
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
