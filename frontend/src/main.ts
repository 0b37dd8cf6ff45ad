import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';

// Svelte 5: components are mounted, not constructed.
const app = mount(App, { target: document.getElementById('app')! });

export default app;
