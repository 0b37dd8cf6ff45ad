module github.com/waymark/waymark/build/ollama

go 1.26.8

require (
	github.com/ollama/ollama v0.17.4
	github.com/x448/float16 v0.8.4
)

require golang.org/x/sync v0.17.0 // indirect
