package backup

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"prima/internal/platform/blob"
)

// Target opens where backups go (or come from): a local directory, or
// s3://bucket/prefix on the S3 service in s3 (the media store's endpoint
// and keys; its Bucket and Prefix are replaced by the address's).
func Target(spec string, s3 blob.S3Config) (blob.Store, error) {
	if spec == "" {
		return nil, fmt.Errorf("backup: no place given (a directory or s3://bucket/prefix)")
	}
	if !strings.HasPrefix(spec, "s3://") {
		dir, err := filepath.Abs(spec)
		if err != nil {
			return nil, err
		}
		return blob.NewLocal(dir)
	}
	u, err := url.Parse(spec)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("backup: %q: want s3://bucket/prefix", spec)
	}
	if s3.Endpoint == "" {
		return nil, fmt.Errorf("backup: %s needs the S3 service's address and keys (s3-endpoint, s3-access-key, s3-secret-key)", spec)
	}
	s3.Bucket, s3.Prefix = u.Host, strings.Trim(u.Path, "/")
	return blob.NewS3(s3)
}
