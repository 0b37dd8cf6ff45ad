import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The desktop shell embeds dist/ (frontend/embed.go); relative paths keep the
// build working from Wails' asset server and from a test's file server alike.
export default defineConfig({
  base: './',
  plugins: [svelte()],
  build: { outDir: 'dist', emptyOutDir: false, target: 'es2022' },
});
