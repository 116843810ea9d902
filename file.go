package gcp

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gcpnet/gcp/internal/atomicfile"
)

// SaveFile writes m to path in the format of MarshalBinary, atomically: it
// writes a temporary file in the same directory, flushes it to disk,
// renames it over path and flushes the directory. Readers of path see the
// old file or the new one, never a mix. A failed write leaves the old file
// intact and removes the temporary file; a crash leaves the old file intact
// and at worst a stray ".<name>.tmp*" file. The file keeps the permission
// bits of the file it replaces; a new file gets 0644. If path is a
// symbolic link, the file it points to is replaced, or created if the link
// dangles, and the link kept.
//
// It replaces only what a save may lose: a saved model (of this package or
// of package bayes) or an empty file. An existing path that is not a
// regular file (or a link to one), such as a directory, a device like
// /dev/null or a FIFO, gives ErrNotRegular, and a regular file that is not
// a saved model ErrForeignFile; both are left alone.
func SaveFile[T Float](path string, m *Model[T]) error {
	return SaveFileContext(context.Background(), path, m)
}

// SaveFileContext is SaveFile, stopped by ctx: if ctx is done before the
// new file replaces path, it removes the temporary file, leaves path as it
// was and returns ctx.Err(). It writes in chunks of a few MiB and checks
// ctx between them and once more after the flush, right before the
// rename, so that a command can end the save of a large model promptly on
// SIGINT (see signal.NotifyContext), at any moment, without leaving a
// temporary file as large as the model behind.
func SaveFileContext[T Float](ctx context.Context, path string, m *Model[T]) error {
	return atomicfile.Target{Path: path, Kind: atomicfile.Model}.WriteMarshaled(ctx, m)
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
