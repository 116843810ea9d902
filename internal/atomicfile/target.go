package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Target is a file to write: where, of which kind, and what it must not
// replace. The zero Kind has no magic, so only a new or empty file may be
// replaced; Force lifts that.
type Target struct {
	Path string
	Kind Kind
	// Force replaces an existing regular file of another kind too.
	Force bool
	// Inputs are files the target must never replace, whatever Force
	// says: the files a command reads. They are compared by identity
	// (os.SameFile), so that a symbolic or a hard link to one is caught.
	Inputs []string
}

// Check returns the error that Write would return before it writes
// anything, so that a command can refuse a bad output before a long
// computation rather than after it: ErrNotRegular, ErrInput or
// ErrForeign for a path Write must not replace, and the error of creating
// a file in the directory that would hold it, for example one that is
// missing or not writable. It creates and removes a temporary file there
// to find out.
func (t Target) Check() error {
	file, _, err := t.resolve()
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(file), tempPattern(file))
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// tempPattern is os.CreateTemp's pattern of the temporary files that
// replace file: hidden, and named after it, so that a crash leaves a
// ".NAME.tmp*" file whose origin is plain.
func tempPattern(file string) string { return "." + filepath.Base(file) + ".tmp*" }

// resolve returns the file that Write replaces for t.Path, which need not
// exist, and the permission bits the new file gets: those of the file it
// replaces, or 0644. The file is t.Path or, if that is a symbolic link,
// the end of its chain of links (a dangling link names a new file). Only
// the last element is followed, as the rename into its directory works
// through links in the directories. It returns the errors of Check for a
// file that must not be replaced.
func (t Target) resolve() (file string, perm fs.FileMode, err error) {
	file, fi, err := follow(t.Path)
	if err != nil || fi == nil {
		return file, 0o644, err
	}
	if !fi.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%w: %s is %v", ErrNotRegular, t.Path, fi.Mode().Type())
	}
	for _, in := range t.Inputs {
		if ifi, err := os.Stat(in); err == nil && os.SameFile(fi, ifi) {
			return "", 0, fmt.Errorf("%w: %s is the input %s", ErrInput, t.Path, in)
		}
	}
	if !t.Force {
		ok, err := t.Kind.holds(file, fi)
		if err != nil {
			return "", 0, err
		}
		if !ok {
			return "", 0, fmt.Errorf("%w: %s exists and is not a %s", ErrForeign, t.Path, t.Kind.Name)
		}
	}
	return file, fi.Mode().Perm(), nil
}

// follow returns the end of the chain of symbolic links that starts at
// path, and its Lstat, nil if it does not exist.
func follow(path string) (string, fs.FileInfo, error) {
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, fi, nil
		}
		if hops == maxLinks {
			return "", nil, fmt.Errorf("gcp: %s: more than %d symbolic links", path, maxLinks)
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
}

// maxLinks is how many symbolic links follow follows before it gives up
// on a loop, Linux's limit for one path.
const maxLinks = 40
