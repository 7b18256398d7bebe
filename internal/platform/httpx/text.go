package httpx

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The text rule: every string a client sends us, in a JSON body or a query
// parameter, is checked in one place (Decode, Query.String) so no handler
// has to remember it. A string may not hold C0 controls (U+0000–U+001F),
// DEL, C1 controls (U+0080–U+009F) or invalid text (bytes that are not
// UTF-8, unpaired UTF-16 surrogates in \u escapes, the noncharacters
// U+FFFE/U+FFFF). NUL is the one that bites: PostgreSQL refuses it in text
// (a 500) while SQLite stores it (a value nobody can display or match).
//
// A struct field opts out with a tag:
//
//	Body  string `json:"body" text:"multiline"` // \n, \r and \t allowed (comments, posts)
//	Paste string `json:"cutInfos" text:"strip"` // pasted text: controls are dropped, not refused
//
// Tags combine ("multiline,strip"). In strip mode without multiline, \n, \r
// and \t become a space so pasted words stay apart.

// textMode is what a field's text tag allows.
type textMode struct{ multiline, strip bool }

func parseTextTag(tag string) textMode {
	var m textMode
	for _, opt := range strings.Split(tag, ",") {
		switch strings.TrimSpace(opt) {
		case "multiline":
			m.multiline = true
		case "strip":
			m.strip = true
		}
	}
	return m
}

// badRune reports whether r is refused in text of mode m. Invalid UTF-8
// reaches here as utf8.RuneError with width 1 and is refused by the caller.
func badRune(r rune, m textMode) bool {
	switch {
	case r == '\n' || r == '\t' || r == '\r':
		return !m.multiline
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0xfffe || r == 0xffff:
		// Decode turns invalid UTF-8 and unpaired surrogates into U+FFFF
		// (see markInvalid), so the field they were in can be named.
		return true
	}
	return false
}

// textProblem describes the first refused character of s, or "" when s is
// clean under m.
func textProblem(s string, m textMode) string {
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			return fmt.Sprintf("invalid UTF-8 at byte %d", i)
		case r == 0xfffe || r == 0xffff:
			return fmt.Sprintf("invalid UTF-8, unpaired surrogate or noncharacter at byte %d", i)
		case badRune(r, m):
			return fmt.Sprintf("control character %U at byte %d", r, i)
		}
		i += w
	}
	return ""
}

// stripText drops what m refuses, turning line breaks and tabs into spaces
// when m is single-line.
func stripText(s string, m textMode) string {
	if textProblem(s, m) == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case r == utf8.RuneError && w == 1:
		case !badRune(r, m):
			b.WriteRune(r)
		case r == '\n' || r == '\t' || r == '\r':
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// TextError is the 422 for a string that breaks the text rule; field is the
// JSON path or query parameter, whose client-chosen parts (map keys) are
// already escaped by Echo, so it is only bounded here.
func TextError(field, problem string) *Error {
	field = truncate(field, 2*EchoLimit)
	return Invalid("参数 "+field+" 含有不允许的控制字符或无效字符", "field "+field+": "+problem)
}

// CheckText applies the single-line rule to s, for text that arrives by
// another way than Decode or Query (a path value, a header).
func CheckText(field, s string) error {
	if p := textProblem(s, textMode{}); p != "" {
		return TextError(field, p)
	}
	return nil
}

// checkValue walks v (the decoded value) and applies the text rule to every
// string in it: struct fields (by their JSON names), slice and array
// elements, map keys and values, through pointers and interfaces. Strings
// in strip mode are rewritten in place, which is why Decode walks the value
// it decoded into rather than a copy.
func checkValue(v reflect.Value, path string, m textMode) error {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if m.strip && v.CanSet() {
			if clean := stripText(s, m); clean != s {
				v.SetString(clean)
			}
			return nil
		}
		// A strip string that cannot be written is refused rather than let
		// through unstripped.
		if p := textProblem(s, m); p != "" {
			return TextError(path, p)
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		elem := v.Elem()
		if v.Kind() == reflect.Interface && elem.Kind() == reflect.String && m.strip && v.CanSet() {
			// A string inside an interface cannot be set in place.
			if clean := stripText(elem.String(), m); clean != elem.String() {
				v.Set(reflect.ValueOf(clean).Convert(elem.Type()))
			}
			return nil
		}
		return checkValue(elem, path, m)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() && !(f.Anonymous && f.Type.Kind() == reflect.Struct) {
				continue // encoding/json fills neither, except an embedded struct's fields
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			fm := m
			if tag, ok := f.Tag.Lookup("text"); ok {
				fm = parseTextTag(tag)
			}
			p := path
			if !f.Anonymous || name != "" {
				if name == "" {
					name = f.Name
				}
				p = joinPath(path, name)
			}
			if err := checkValue(v.Field(i), p, fm); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // []byte and json.RawMessage are bytes, not text
		}
		for i := 0; i < v.Len(); i++ {
			if err := checkValue(v.Index(i), path+"["+strconv.Itoa(i)+"]", m); err != nil {
				return err
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			k := iter.Key()
			ks := k.Type().String()
			switch {
			case k.Kind() == reflect.String:
				ks = k.String()
			case k.CanInterface():
				ks = fmt.Sprint(k.Interface())
			}
			kp := path + "[" + Echo(ks) + "]"
			if k.Kind() == reflect.String {
				if p := textProblem(k.String(), textMode{}); p != "" {
					return TextError(kp, "key: "+p)
				}
			}
			val := iter.Value()
			// A map reflect will not let us write is only checked.
			if m.strip && val.Kind() != reflect.Pointer && v.CanInterface() {
				// Map values are not addressable: check a copy, store it back.
				cp := reflect.New(val.Type()).Elem()
				cp.Set(val)
				if err := checkValue(cp, kp, m); err != nil {
					return err
				}
				v.SetMapIndex(k, cp)
				continue
			}
			if err := checkValue(val, kp, m); err != nil {
				return err
			}
		}
	}
	return nil
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// EchoLimit is how many characters of client input an error message repeats.
const EchoLimit = 64

// Echo is the one way an error message repeats client input: at most
// EchoLimit characters (then "…"), quoted, with control characters and
// invalid bytes escaped, so a message can neither grow with the input nor
// carry a line break into a log or a developer's terminal.
func Echo(s string) string { return strconv.Quote(truncate(s, EchoLimit)) }

// clip is Echo without the quotes, for names inside a tip.
func clip(s string) string { return escape(truncate(s, EchoLimit)) }

// escape is strconv.Quote without the surrounding quotes.
func escape(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// truncate cuts s after n characters (an invalid byte counts as one),
// never inside a UTF-8 sequence.
func truncate(s string, n int) string {
	count := 0
	for i := 0; i < len(s); {
		if count == n {
			return s[:i] + "…"
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		count++
	}
	return s
}

// maxMsg bounds a whole msg, whatever built it: a last guard for an echo
// site that did not use Echo.
const maxMsg = 512

// safeMsg escapes controls and bounds msg; clean messages pass unchanged.
func safeMsg(msg string) string {
	if len(msg) <= maxMsg && textProblem(msg, textMode{}) == "" {
		return msg
	}
	return escape(truncate(msg, maxMsg))
}
