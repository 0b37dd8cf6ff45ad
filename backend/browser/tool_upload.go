package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// UploadArgs are browser_upload's arguments.
type UploadArgs struct {
	Index int      `json:"index" jsonschema:"the file field's number in the last list"`
	Files []string `json:"files" jsonschema:"absolute paths of the files the user named"`
}

func (UploadArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
	files := tools.Prop(s, "files")
	files.MinItems = jsonschema.Ptr(1)
	tools.MinLength(files.Items, 1)
}

// UploadRef is the typed handle on browser_upload.
var UploadRef = tools.RefTo[UploadArgs, Result[UploadResult]]("browser_upload")

// uploadTool is browser_upload: it gives files the user named to a numbered file field.
func uploadTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, UploadRef, "Give files to the numbered file field (or its button or label; a button with no field in sight is clicked and the file chooser it opens gets the files). Only files the user named, as absolute paths of regular files; one file unless the field takes several. A file is sent only when the user gave it (MCP: a file or folder given to the server with --allow-file).", (*Session).toolUpload)
}

func (s *Session) toolUpload(ctx context.Context, a UploadArgs) (*UploadResult, error) {
	if err := checkUpload(ctx, a.Files); err != nil {
		return nil, err
	}
	return s.Upload(ctx, a.Index, a.Files)
}
