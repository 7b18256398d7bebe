package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config locates a bucket of an S3-compatible service.
type S3Config struct {
	// Endpoint is the service's URL, e.g. https://s3.eu-central-1.amazonaws.com
	// or http://127.0.0.1:7070; its scheme decides TLS.
	Endpoint  string
	Bucket    string
	AccessKey string
	SecretKey string
	Region    string // empty lets the client discover it
	// Prefix puts every key under a folder of the bucket ("prima/"), so
	// one bucket can hold several installations.
	Prefix string
}

// S3 is a Store in a bucket of an S3-compatible service.
type S3 struct {
	core   *minio.Core
	bucket string
	prefix string
}

var _ Store = (*S3)(nil)

// partSize bounds the memory of a Put of unknown length: minio-go buffers one
// part at a time, and without a size it would plan parts for a 5 TiB object
// (over 500 MiB each). 16 MiB parts allow objects up to 160 GB.
const partSize = 16 << 20

// NewS3 connects to cfg's bucket. It does not create the bucket: an operator
// creates it (with its lifecycle and access rules) before pointing Prima at it.
func NewS3(cfg S3Config) (*S3, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("s3 endpoint %q: want http(s)://host[:port]", cfg.Endpoint)
	}
	if cfg.Bucket == "" {
		return nil, errors.New("s3: bucket is empty")
	}
	prefix := strings.Trim(cfg.Prefix, "/")
	if prefix != "" {
		if err := CheckKey(prefix); err != nil {
			return nil, fmt.Errorf("s3 prefix: %w", err)
		}
		prefix += "/"
	}
	core, err := minio.NewCore(u.Host, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: u.Scheme == "https",
		Region: cfg.Region,
	})
	if err != nil {
		return nil, fmt.Errorf("s3: %w", err)
	}
	return &S3{core: core, bucket: cfg.Bucket, prefix: prefix}, nil
}

// Check verifies that the bucket exists and the credentials reach it, so a
// misconfigured server fails at start, not on its first upload.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.core.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("s3 bucket %s: %w", s.bucket, err)
	}
	if !ok {
		return fmt.Errorf("s3 bucket %s does not exist", s.bucket)
	}
	return nil
}

func (s *S3) object(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return s.prefix + key, nil
}

// mapErr turns S3's answers into the package's sentinels.
func mapErr(op, key string, err error) error {
	if err == nil {
		return nil
	}
	r := minio.ToErrorResponse(err)
	switch {
	case r.Code == "NoSuchKey" || r.StatusCode == http.StatusNotFound && r.Code != "NoSuchBucket":
		return fmt.Errorf("blob %s %s: %w", op, key, ErrNotFound)
	case r.Code == "InvalidRange" || r.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		return fmt.Errorf("blob %s %s: %w", op, key, ErrRange)
	}
	return fmt.Errorf("blob %s %s: %w", op, key, err)
}

// Put uploads r; S3 makes an object visible only once it is complete, so a
// failed or cancelled upload leaves the old object in place.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, contentType string) error {
	obj, err := s.object(key)
	if err != nil {
		return err
	}
	if err := sameType(key, contentType); err != nil {
		return err
	}
	if contentType == "" {
		contentType = ContentType(key)
	}
	opts := minio.PutObjectOptions{ContentType: contentType, PartSize: partSize}
	// Most puts are pictures: read up to smallPut first, and when that is
	// all, send one PUT with a known length instead of the three requests
	// of a multipart upload of unknown length.
	head := make([]byte, smallPut)
	n, err := io.ReadFull(ctxReader{ctx, r}, head)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		_, err = s.core.Client.PutObject(ctx, s.bucket, obj, bytes.NewReader(head[:n]), int64(n), opts)
	case err != nil:
		return fmt.Errorf("blob put %s: %w", key, err)
	default:
		_, err = s.core.Client.PutObject(ctx, s.bucket, obj, io.MultiReader(bytes.NewReader(head), ctxReader{ctx, r}), -1, opts)
	}
	return mapErr("put", key, err)
}

// smallPut is the size up to which Put sends a single request.
const smallPut = 4 << 20

// PutFile uploads the file with its size known, so large files go up in
// parts read straight from the disk.
func (s *S3) PutFile(ctx context.Context, key, path string) error {
	obj, err := s.object(key)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	_, err = s.core.Client.PutObject(ctx, s.bucket, obj, f, st.Size(), minio.PutObjectOptions{ContentType: ContentType(key), PartSize: partSize})
	return mapErr("put", key, err)
}

// Open streams the whole object.
func (s *S3) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	obj, err := s.object(key)
	if err != nil {
		return nil, err
	}
	body, _, _, err := s.core.GetObject(ctx, s.bucket, obj, minio.GetObjectOptions{})
	if err != nil {
		return nil, mapErr("open", key, err)
	}
	return body, nil
}

// OpenRange asks S3 for exactly the bytes wanted (a Range header), so a
// seek in a video costs one ranged GET, not a download of the rest.
func (s *S3) OpenRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	obj, err := s.object(key)
	if err != nil {
		return nil, err
	}
	if offset < 0 || length == 0 {
		return nil, fmt.Errorf("blob open %s bytes %d+%d: %w", key, offset, length, ErrRange)
	}
	var opts minio.GetObjectOptions
	if length > 0 {
		err = opts.SetRange(offset, offset+length-1)
	} else {
		// SetRange(0, 0) would mean the first byte only; ask for the whole
		// object from 0 explicitly so an empty object still fails with ErrRange.
		opts.Set("Range", fmt.Sprintf("bytes=%d-", offset))
	}
	if err != nil {
		return nil, err
	}
	body, _, _, err := s.core.GetObject(ctx, s.bucket, obj, opts)
	if err != nil {
		return nil, mapErr("open", key, err)
	}
	return body, nil
}

// Stat asks S3 for the object's metadata (a HEAD request).
func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	obj, err := s.object(key)
	if err != nil {
		return Info{}, err
	}
	oi, err := s.core.Client.StatObject(ctx, s.bucket, obj, minio.StatObjectOptions{})
	if err != nil {
		return Info{}, mapErr("stat", key, err)
	}
	return s.info(key, oi), nil
}

func (s *S3) info(key string, oi minio.ObjectInfo) Info {
	ct := oi.ContentType
	if ct == "" {
		ct = ContentType(key)
	}
	return Info{Key: key, Size: oi.Size, ModTime: oi.LastModified.UTC(), ContentType: ct, ETag: `"` + strings.Trim(oi.ETag, `"`) + `"`}
}

// Exists is a Stat that treats a missing object as an answer.
func (s *S3) Exists(ctx context.Context, key string) (bool, error) {
	_, err := s.Stat(ctx, key)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Delete removes the object; S3 answers success for a missing one too.
func (s *S3) Delete(ctx context.Context, key string) error {
	obj, err := s.object(key)
	if err != nil {
		return err
	}
	return mapErr("delete", key, s.core.Client.RemoveObject(ctx, s.bucket, obj, minio.RemoveObjectOptions{}))
}

// List pages through the folder with ListObjectsV2.
func (s *S3) List(ctx context.Context, prefix string) iter.Seq2[Info, error] {
	return func(yield func(Info, error) bool) {
		if err := CheckPrefix(prefix); err != nil {
			yield(Info{}, err)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel() // stops the lister when the caller breaks early
		for oi := range s.core.Client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix + prefix, Recursive: true}) {
			if oi.Err != nil {
				yield(Info{}, mapErr("list", prefix, oi.Err))
				return
			}
			key := strings.TrimPrefix(oi.Key, s.prefix)
			if CheckKey(key) != nil || strings.HasSuffix(oi.Key, "/") {
				continue // folder markers or names written by other tools
			}
			if !yield(s.info(key, oi), nil) {
				return
			}
		}
	}
}

// DeletePrefix lists the folder and deletes its objects in batches of up
// to 1000 per request. S3 has no atomic folder delete: a reader racing the
// delete may find some segments gone, which for a rendition being removed
// is the same as finding it gone.
func (s *S3) DeletePrefix(ctx context.Context, prefix string) error {
	if prefix == "" || CheckPrefix(prefix) != nil {
		return fmt.Errorf("%w: prefix %q", ErrBadKey, prefix)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	objs := s.core.Client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix + prefix, Recursive: true})
	var listErr error
	feed := make(chan minio.ObjectInfo)
	go func() {
		defer close(feed)
		for oi := range objs {
			if oi.Err != nil {
				listErr = oi.Err
				return
			}
			select {
			case feed <- oi:
			case <-ctx.Done():
				return
			}
		}
	}()
	var firstErr error
	for re := range s.core.Client.RemoveObjects(ctx, s.bucket, feed, minio.RemoveObjectsOptions{}) {
		if re.Err != nil && firstErr == nil {
			firstErr = fmt.Errorf("blob delete %s: %w", re.ObjectName, re.Err)
		}
	}
	if firstErr != nil {
		return firstErr
	}
	return mapErr("delete", prefix, listErr)
}
