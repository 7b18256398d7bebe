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

void firstScreenPainted().then(() => import('./start'))
