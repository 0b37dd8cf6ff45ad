// Package ollamatier is the real-Ollama test tier (issue 34 point 4): it writes a tiny
// llama model Ollama can load, runs `ollama serve` privately and drives Waymark's doors
// through it (tier_test.go). It is a module of its own so that Ollama stays out of the
// product's go.mod; build/ollama.sh builds the server.
package ollamatier

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ollama/ollama/fs/ggml"
	"github.com/x448/float16"
)

// Tiny model's shape: 2 blocks, 64 wide, 4 heads, Llama 3.2's real byte-pair tokenizer
// (128,000 tokens from Ollama's own tokenizer test data, plus two control tokens).
const (
	tinyEmbd     = 64
	tinyHeads    = 4
	tinyFF       = 128
	tinyBlocks   = 2
	TinyTrainCtx = 32768 // llama.context_length: what /api/show reports
	tokBOS       = "<|begin_of_text|>"
	tokEOS       = "<|end_of_text|>"
)

// The chat template: plain role lines; .Tools appears so that Ollama accepts requests
// that declare tools (it refuses them for a template without .Tools).
const TinyTemplate = `{{- if .Tools }}tools:{{ range .Tools }} {{ .Function.Name }}{{ end }}
{{ end }}{{- range .Messages }}{{ .Role }}: {{ .Content }}
{{ end }}assistant: `

// tensor is one weight tensor's data, written in GGUF's little-endian layout.
type tensor struct {
	f16  bool
	data []float32
}

func (t tensor) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	for _, v := range t.data {
		var err error
		if t.f16 {
			err = binary.Write(bw, binary.LittleEndian, float16.Fromfloat32(v).Bits())
			n += 2
		} else {
			err = binary.Write(bw, binary.LittleEndian, math.Float32bits(v))
			n += 4
		}
		if err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}

// loadVocab reads Llama 3.2's tokenizer from the Ollama module's test data
// (tokenizer/testdata/llama3.2: encoder.json and vocab.bpe).
func loadVocab(dir string) (tokens []string, types []int32, merges []string, err error) {
	b, err := os.ReadFile(filepath.Join(dir, "encoder.json"))
	if err != nil {
		return nil, nil, nil, err
	}
	var vocab map[string]int32
	if err := json.Unmarshal(b, &vocab); err != nil {
		return nil, nil, nil, fmt.Errorf("encoder.json: %w", err)
	}
	tokens = make([]string, len(vocab))
	types = make([]int32, len(vocab))
	for tok, id := range vocab {
		if id < 0 || int(id) >= len(vocab) {
			return nil, nil, nil, fmt.Errorf("encoder.json: token id %d out of range", id)
		}
		tokens[id], types[id] = tok, 1
	}
	for _, tok := range []string{tokBOS, tokEOS} {
		tokens, types = append(tokens, tok), append(types, 3)
	}
	f, err := os.Open(filepath.Join(dir, "vocab.bpe"))
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			merges = append(merges, line)
		}
	}
	return tokens, types, merges, sc.Err()
}

// tinyPreferences are the tokens the tiny model prefers, whatever the prompt (the
// higher, the stronger; every other token is about equally likely). The OpenAI route
// samples at temperature 1 unless asked otherwise, so the preferences are steep
// enough to win anyway: `"` first, then `]` and `}`, so strings and objects close at
// once; "agent" and "success", so that under Waymark's cursor-action schema the answer
// is {"action":"agent_finish_success"}.
var tinyPreferences = map[string]float32{`"`: 3, `]`: 2.5, `}`: 2, "agent": 1.5, "success": 1.5, "_success": 1.5}

// WriteTinyModel writes a random-weight llama GGUF to path, with the tokenizer found
// in tokDir. The weights are made so that the output depends on no prompt: every
// block's output projections are zero (the residual stream is the token's embedding),
// every embedding shares a constant first component and the output head turns that
// component into a fixed preference (tinyPreferences). Unconstrained,
// the model writes `"` until it runs out of tokens (a long stream, cut for length);
// constrained by a JSON schema (Ollama's grammar), it closes every string at once and
// ends when the grammar is complete (only the end token is allowed then). Seeded:
// the same file every time.
func WriteTinyModel(path, tokDir string) error {
	tokens, types, merges, err := loadVocab(tokDir)
	if err != nil {
		return err
	}
	nv := len(tokens)
	id := map[string]int{}
	for i, t := range tokens {
		id[t] = i
	}
	rng := rand.New(rand.NewPCG(34, 4))
	noise := func(n int, scale float32) []float32 {
		d := make([]float32, n)
		for i := range d {
			d[i] = (rng.Float32()*2 - 1) * scale
		}
		return d
	}
	ones := func(n int) []float32 {
		d := make([]float32, n)
		for i := range d {
			d[i] = 1
		}
		return d
	}
	embd := noise(tinyEmbd*nv, 0.1)
	out := noise(tinyEmbd*nv, 0.1)
	for t := range nv {
		embd[t*tinyEmbd] = 1
		out[t*tinyEmbd] = 0
	}
	for tok, pref := range tinyPreferences {
		i, ok := id[tok]
		if !ok {
			return fmt.Errorf("the tokenizer has no token %q", tok)
		}
		out[i*tinyEmbd] = pref
	}
	ts := []*ggml.Tensor{
		{Name: "token_embd.weight", Kind: 1, Shape: []uint64{tinyEmbd, uint64(nv)}, WriterTo: tensor{true, embd}},
		{Name: "output.weight", Kind: 1, Shape: []uint64{tinyEmbd, uint64(nv)}, WriterTo: tensor{true, out}},
		{Name: "output_norm.weight", Kind: 0, Shape: []uint64{tinyEmbd}, WriterTo: tensor{false, ones(tinyEmbd)}},
	}
	for b := range tinyBlocks {
		p := fmt.Sprintf("blk.%d.", b)
		sq := func(name string, zero bool, in, outDim int) *ggml.Tensor {
			d := noise(in*outDim, 0.1)
			if zero {
				d = make([]float32, in*outDim)
			}
			return &ggml.Tensor{Name: p + name + ".weight", Kind: 0, Shape: []uint64{uint64(in), uint64(outDim)}, WriterTo: tensor{false, d}}
		}
		ts = append(ts,
			&ggml.Tensor{Name: p + "attn_norm.weight", Kind: 0, Shape: []uint64{tinyEmbd}, WriterTo: tensor{false, ones(tinyEmbd)}},
			&ggml.Tensor{Name: p + "ffn_norm.weight", Kind: 0, Shape: []uint64{tinyEmbd}, WriterTo: tensor{false, ones(tinyEmbd)}},
			sq("attn_q", false, tinyEmbd, tinyEmbd),
			sq("attn_k", false, tinyEmbd, tinyEmbd),
			sq("attn_v", false, tinyEmbd, tinyEmbd),
			sq("attn_output", true, tinyEmbd, tinyEmbd),
			sq("ffn_gate", false, tinyEmbd, tinyFF),
			sq("ffn_up", false, tinyEmbd, tinyFF),
			sq("ffn_down", true, tinyFF, tinyEmbd),
		)
	}
	kv := ggml.KV{
		"general.architecture":                   "llama",
		"general.name":                           "waymark-tiny",
		"general.file_type":                      uint32(1),
		"llama.context_length":                   uint32(TinyTrainCtx),
		"llama.embedding_length":                 uint32(tinyEmbd),
		"llama.block_count":                      uint32(tinyBlocks),
		"llama.feed_forward_length":              uint32(tinyFF),
		"llama.attention.head_count":             uint32(tinyHeads),
		"llama.attention.head_count_kv":          uint32(tinyHeads),
		"llama.rope.dimension_count":             uint32(tinyEmbd / tinyHeads),
		"llama.rope.freq_base":                   float32(500000),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
		"llama.vocab_size":                       uint32(nv),
		"tokenizer.ggml.model":                   "gpt2",
		"tokenizer.ggml.pre":                     "llama-bpe",
		"tokenizer.ggml.tokens":                  tokens,
		"tokenizer.ggml.token_type":              types,
		"tokenizer.ggml.merges":                  merges,
		"tokenizer.ggml.bos_token_id":            uint32(id[tokBOS]),
		"tokenizer.ggml.eos_token_id":            uint32(id[tokEOS]),
		"tokenizer.ggml.add_bos_token":           true,
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := ggml.WriteGGUF(f, kv, ts); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// TokenizerDir finds Llama 3.2's tokenizer test data in the Ollama module this module
// requires (go list knows where the module cache keeps it).
func TokenizerDir() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ollama/ollama").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m github.com/ollama/ollama: %w", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "tokenizer", "testdata", "llama3.2")
	if _, err := os.Stat(filepath.Join(dir, "encoder.json")); err != nil {
		return "", fmt.Errorf("the Ollama module has no tokenizer test data: %w", err)
	}
	return dir, nil
}

// TinyNumPredict is the tiny model's default answer length (PARAMETER num_predict): an
// unconstrained answer of `"` runs this many tokens and ends for length.
const TinyNumPredict = 40

// TinyModelfile is what follows FROM in the tiny model's Modelfile: the template and
// greedy decoding (temperature 0), so every answer is the same each time.
func TinyModelfile() []string {
	return []string{
		`TEMPLATE """` + TinyTemplate + `"""`,
		"PARAMETER temperature 0",
		fmt.Sprintf("PARAMETER num_predict %d", TinyNumPredict),
	}
}
