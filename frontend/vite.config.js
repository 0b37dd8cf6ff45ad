import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The desktop shell embeds dist/ (frontend/embed.go); relative paths keep the
// build working from Wails' asset server and from a test's file server alike.
// dist/ is emptied on every build (no stale hashed files get embedded); the build
// script puts back dist/.gitkeep, which lets `go vet ./...` compile the embed
// before the first build.
export default defineConfig({
  base: './',
  plugins: [svelte()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1024 },
});
