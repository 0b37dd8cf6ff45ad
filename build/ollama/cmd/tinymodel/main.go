// Command tinymodel writes the tier's tiny random-weight llama GGUF (see
// ollamatier.WriteTinyModel), for trying Ollama by hand:
//
//	go run ./cmd/tinymodel /tmp/tiny.gguf
//	printf 'FROM /tmp/tiny.gguf\n' > Modelfile && ollama create tiny -f Modelfile
package main

import (
	"fmt"
	"os"

	ollamatier "github.com/waymark/waymark/build/ollama"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tinymodel OUT.gguf")
		os.Exit(2)
	}
	dir, err := ollamatier.TokenizerDir()
	if err == nil {
		err = ollamatier.WriteTinyModel(os.Args[1], dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tinymodel:", err)
		os.Exit(1)
	}
}
