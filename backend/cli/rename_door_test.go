package cli

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenameDoorsCLI: `waymark agent` and `waymark call RunCommand` rename a
// name in every case form with the same answer, and both refuse (exit 1,
// the book untouched) a rename one of whose forms cannot be derived. Before,
// «переименуй Марью в Марию» changed only «Марью» and exited 0.
func TestRenameDoorsCLI(t *testing.T) {
	bin := buildCLI(t)
	const book = "# Повесть\n\n## Глава 1\n\nМарья вошла. Он ждал Марью, говорил с Марьей и с Марьею, думал о Марье; у Марьи дом.\n"
	const want = "(Марья → Мария ×1, Марью → Марию ×1, Марьей → Марией ×1, Марьею → Мариею ×1, Марье → Марии ×1, Марьи → Марии ×1)"
	const renamed = "Мария вошла. Он ждал Марию, говорил с Марией и с Мариею, думал о Марии; у Марии дом."
	run := func(cmdText string, viaCall bool) (answer string, code int, text string) {
		dir := t.TempDir()
		doc, db := filepath.Join(dir, "book.md"), filepath.Join(dir, "w.db")
		if err := os.WriteFile(doc, []byte(book), 0o644); err != nil {
			t.Fatal(err)
		}
		var cmd *exec.Cmd
		if viaCall {
			args, _ := json.Marshal(map[string]string{"command": cmdText})
			cmd = exec.Command(bin, "call", "RunCommand", "--doc", doc, "--db", db, string(args))
		} else {
			cmd = exec.Command(bin, "agent", "--doc", doc, "--db", db, cmdText)
		}
		cmd.Env = builtinEnv()
		out, err := cmd.Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(doc)
		return string(out), code, string(b)
	}
	for _, via := range []bool{false, true} {
		out, code, text := run("переименуй Марью в Марию во всей книге", via)
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(text, renamed) {
			t.Errorf("call=%v: exit %d, the book:\n%s\nthe output: %s", via, code, text, out)
		}
		out, code, text = run("переименуй Марью в Андрея во всей книге", via)
		if code != 1 || text != book || !strings.Contains(out, "Ничего не изменено: для «Марье» (1), «Марьею» (1), «Марьи» (1)") {
			t.Errorf("call=%v: a rename it cannot derive: exit %d, the book:\n%s\nthe output: %s", via, code, text, out)
		}
	}
}
