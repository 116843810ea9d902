package bayes

import (
	"context"

	"github.com/gcpnet/gcp/internal/atomicfile"
)

// Model is a trained model of this package, as SaveFile takes it: a *PBP
// or an *SVGD.
type Model interface {
	*PBP | *SVGD
	MarshalBinary() ([]byte, error)
}

// SaveFile writes m to path in the format of its MarshalBinary,
// atomically and with the guarantees and errors of gcp.SaveFile: the old
// file or the new one, never a mix, a symbolic link kept, and nothing
// replaced but a saved model (of either package) or an empty file; a
// path that is not a regular file gives gcp.ErrNotRegular, a file of
// another kind gcp.ErrForeignFile.
func SaveFile[M Model](path string, m M) error {
	return SaveFileContext(context.Background(), path, m)
}

// SaveFileContext is SaveFile, stopped by ctx as gcp.SaveFileContext is:
// a cancel at any moment before the rename leaves path as it was and
// returns ctx.Err().
func SaveFileContext[M Model](ctx context.Context, path string, m M) error {
	return atomicfile.Target{Path: path, Kind: atomicfile.Model}.WriteMarshaled(ctx, m)
}
