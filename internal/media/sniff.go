package media

import "bytes"

// Kind is what an asset is.
type Kind string

const (
	Image Kind = "image"
	Video Kind = "video"
)

// Format is a file type recognised from its first bytes.
type Format struct {
	Kind Kind
	Name string // jpeg, png, gif, webp, mp4, matroska
	Ext  string // the source key's extension
}

// sniffLen is how many leading bytes Sniff needs.
const sniffLen = 16

// Sniff names the type of a file from its magic number, never from a name
// or a client's Content-Type (both are the uploader's word). ok is false
// for anything Prima does not take: text, executables, archives, SVG (which
// is active content), audio.
func Sniff(b []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return Format{Image, "jpeg", ".jpg"}, true
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return Format{Image, "png", ".png"}, true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return Format{Image, "gif", ".gif"}, true
	case len(b) >= 12 && bytes.Equal(b[:4], []byte("RIFF")) && bytes.Equal(b[8:12], []byte("WEBP")):
		return Format{Image, "webp", ".webp"}, true
	case len(b) >= 12 && bytes.Equal(b[4:8], []byte("ftyp")):
		// ISO base media (MP4, MOV, 3GP). Audio-only brands (M4A, M4B) are
		// refused here; any other brand is left to ffprobe, which refuses
		// a file without a video stream.
		brand := string(b[8:12])
		if brand == "M4A " || brand == "M4B " || brand == "M4P " {
			return Format{}, false
		}
		if brand == "qt  " {
			return Format{Video, "mov", ".mov"}, true
		}
		return Format{Video, "mp4", ".mp4"}, true
	case bytes.HasPrefix(b, []byte{0x1A, 0x45, 0xDF, 0xA3}):
		return Format{Video, "matroska", ".mkv"}, true
	}
	return Format{}, false
}
