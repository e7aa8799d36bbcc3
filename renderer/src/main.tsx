import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';
import { App } from './app/App';
import '@fontsource-variable/inter/wght.css';
import './ui/styles.css';
import './ui/components.css';

// Inter's Latin face (the one every screen's words use) is asked for now, beside the start-up
// requests, instead of when the first words are laid out after the session's answer; asked for
// from here rather than from index.html, so on a slow line it does not share the line with this
// script, which every screen waits for first. The stylesheet's @font-face takes this same file.
const font = document.createElement('link');
font.rel = 'preload';
font.as = 'font';
font.type = 'font/woff2';
font.crossOrigin = 'anonymous';
font.href = interLatin;
document.head.append(font);

const root = document.getElementById('root');
if (!root) throw new Error('index.html is missing #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
