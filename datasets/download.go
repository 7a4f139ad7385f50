package datasets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
)

// Download makes sure dir holds a verified copy of the dataset and returns
// its path. When dir/FileName already exists and its decompressed content
// matches the pin, nothing is fetched. Otherwise spec.URL is fetched into a
// temporary file in dir, verified, and renamed to dir/FileName; a copy that
// does not verify is deleted and reported as a *ChecksumError. dir is
// created when missing. A spec without a pin is fetched but cannot be
// verified.
func Download(ctx context.Context, spec Spec, dir string) (string, error) {
	return download(ctx, http.DefaultClient, spec, dir)
}

func download(ctx context.Context, client *http.Client, spec Spec, dir string) (string, error) {
	if spec.FileName == "" || filepath.Base(spec.FileName) != spec.FileName {
		return "", fmt.Errorf("datasets: dataset %q: file name %q must be a plain file name", spec.Name, spec.FileName)
	}
	dst := filepath.Join(dir, spec.FileName)
	if _, err := os.Stat(dst); err == nil {
		if err := verifyFile(spec, dst); err == nil {
			return dst, nil
		}
		// Present but wrong: fetch a fresh copy and replace it.
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("datasets: %w", err)
	}
	if spec.URL == "" {
		return "", fmt.Errorf("datasets: dataset %q has no download URL; place %s in %s by hand", spec.Name, spec.FileName, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+spec.FileName+".part-*")
	if err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	tmpName := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, spec.URL, nil)
	if err != nil {
		return "", fmt.Errorf("datasets: download %s: %w", spec.Name, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("datasets: download %s from %s: %w", spec.Name, spec.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("datasets: download %s from %s: HTTP %s", spec.Name, spec.URL, resp.Status)
	}
	if _, err := io.Copy(tmp, resp.Body); err != nil {
		return "", fmt.Errorf("datasets: download %s from %s: %w", spec.Name, spec.URL, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	if err := verifyFile(spec, tmpName); err != nil {
		var ce *ChecksumError
		if errors.As(err, &ce) {
			ce.File = spec.URL + " (downloaded copy, deleted)"
		}
		return "", err
	}
	if err := os.Rename(tmpName, dst); err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	ok = true
	return dst, nil
}

// verifyFile checks the decompressed content of path against the pin.
func verifyFile(spec Spec, path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	data, err := decompress(path, raw)
	if err != nil {
		return err
	}
	return verify(spec, path, data)
}
