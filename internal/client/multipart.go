package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/textproto"
	"sort"
	"strings"
)

// rawBody is a request body sent as it is, not as JSON: a multipart
// upload. It hashes (for the outcome journal) as the digest of its bytes,
// which are the same for the same upload: the boundary is derived from
// the content.
type rawBody struct {
	contentType string
	data        []byte
}

// MarshalJSON is what the journal's request signature hashes.
func (b *rawBody) MarshalJSON() ([]byte, error) {
	sum := sha256.Sum256(b.data)
	return json.Marshal(map[string]string{"content_type": b.contentType, "sha256": hex.EncodeToString(sum[:])})
}

// multipartBody encodes fields and one file part as multipart/form-data.
func multipartBody(fields map[string]string, fileField, filename string, content []byte) (*rawBody, error) {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		io.WriteString(h, k+"\x00"+fields[k]+"\x00")
	}
	io.WriteString(h, fileField+"\x00"+filename+"\x00")
	h.Write(content)
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.SetBoundary("fibe-" + hex.EncodeToString(h.Sum(nil))[:40]); err != nil {
		return nil, err
	}
	for _, k := range keys {
		if err := w.WriteField(k, fields[k]); err != nil {
			return nil, err
		}
	}
	hdr := textproto.MIMEHeader{}
	hdr.Set("Content-Disposition", `form-data; name="`+escapeQuotes(fileField)+`"; filename="`+escapeQuotes(filename)+`"`)
	hdr.Set("Content-Type", "application/octet-stream")
	part, err := w.CreatePart(hdr)
	if err != nil {
		return nil, err
	}
	if _, err := part.Write(content); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return &rawBody{contentType: w.FormDataContentType(), data: buf.Bytes()}, nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "%0D", "\n", "%0A")

func escapeQuotes(s string) string { return quoteEscaper.Replace(s) }
