package media

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // decoders registered for image.Decode
	"image/jpeg"
	_ "image/png"

	"github.com/buckket/go-blurhash"
	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp"
)

// Image limits. The pixel count bounds decoding memory (4 bytes a pixel:
// 50 MP is 200 MB), checked from the header before a pixel is decoded, so
// a small file that declares a huge canvas (a decompression bomb) costs
// nothing.
const (
	MaxImageSide   = 12000
	MaxImagePixels = 50_000_000
	DisplaySide    = 1280 // long side of the display variant
	ThumbSide      = 360  // long side of the thumbnail
	jpegQuality    = 82
)

// ErrBadImage is an image that cannot be taken: undecodable, truncated or too large.
var ErrBadImage = errors.New("media: bad image")

// ErrImageTooBig is a picture whose declared size is over the limits.
var ErrImageTooBig = fmt.Errorf("%w: too many pixels", ErrBadImage)

// Processed is what an image upload becomes.
type Processed struct {
	Width, Height int
	Display       []byte // JPEG
	Thumb         []byte // JPEG
	Placeholder   string // BlurHash of the thumbnail
}

// ProcessImage checks the declared size, decodes, and renders the display
// variant and the thumbnail as JPEG plus a BlurHash placeholder.
func ProcessImage(data []byte) (*Processed, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrBadImage, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide ||
		int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return nil, fmt.Errorf("%w: %dx%d is over the limit (%d px a side, %d pixels)", ErrImageTooBig, cfg.Width, cfg.Height, MaxImageSide, MaxImagePixels)
	}
	img, format, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: decode: %v", ErrBadImage, err)
	}
	// Turned after scaling: the display copy is at most 1280 px, so the
	// turn costs little whatever the original's size.
	o := 1
	if format == "jpeg" {
		o = jpegOrientation(data)
	}
	display := orient(fit(img, DisplaySide), o)
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if o >= 5 {
		w, h = h, w // reported as the picture stands
	}
	p := &Processed{Width: w, Height: h}
	thumb := fit(display, ThumbSide)
	if p.Display, err = encodeJPEG(display); err != nil {
		return nil, err
	}
	if p.Thumb, err = encodeJPEG(thumb); err != nil {
		return nil, err
	}
	// 4x3 components of a small copy: the hash is the same either way and
	// the small copy keeps the cost at a few milliseconds.
	if p.Placeholder, err = blurhash.Encode(4, 3, fit(thumb, 64)); err != nil {
		return nil, fmt.Errorf("media: blurhash: %w", err)
	}
	return p, nil
}

// fit scales img down so its long side is at most side, onto an opaque
// RGBA canvas (JPEG has no alpha: transparent parts become white).
func fit(img image.Image, side int) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > side || h > side {
		if w >= h {
			h = max(1, h*side/w)
			w = side
		} else {
			w = max(1, w*side/h)
			h = side
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	if w == b.Dx() && h == b.Dy() {
		draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Over)
		return dst
	}
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Over, nil)
	return dst
}

func encodeJPEG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality}); err != nil {
		return nil, fmt.Errorf("media: jpeg: %w", err)
	}
	return buf.Bytes(), nil
}
