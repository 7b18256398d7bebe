// Entry point. The global styles are the page's own stylesheets (index.html
// links them, render-blocking): the boot mark and the first screen the
// server draws (internal/app/firstscreen.go) are styled by them. The app
// (start.tsx: React, the router, every page) is imported only once that
// first screen has been painted with its picture (app/first-paint.ts), so
// on a slow phone the picture comes first and is not held back by the
// app's scripts, neither on the wire nor on the main thread. A page without
// a first screen starts the app at once.
import 'antd-mobile/es/global'
import './styles/global.css'
import { firstScreenPainted } from './app/first-paint'

// The first read of localStorage and of document.cookie each wait for the
// browser (the origin's storage loaded, the cookies asked for): a few
// milliseconds of a slow phone's main thread, spent here while the page
// waits for its picture rather than inside the app's start-up task.
try {
  localStorage.getItem('prima_token')
  void document.cookie
} catch {
  // storage refused (a private mode): the app copes (lib/storage.ts)
}

// React's own code (react-dom: the largest part of the libraries) is
// evaluated in a task of its own before the app's: evaluating a module
// graph is one task however large, and the two together made the longest
// task of a first visit (~100 ms on a slow phone).
void firstScreenPainted()
  .then(() => import('react-dom/client'))
  .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
  .then(() => import('./start'))
