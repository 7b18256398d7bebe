// Card-size covers (internal/media/cover.go). A cover under
// /media/covers/set/ always has a 360 px wide copy beside it,
// <name>.w360.jpg, and is itself at least 480 px wide; the card gets both
// as a srcset, so a phone that shows the card 330 device pixels wide takes
// the small one and a 3x iPhone the full one. Any other cover is used as it
// is. The server's preload of home's first covers (internal/app/homeboot.go)
// writes the same srcset and sizes, so the preload is the request the card
// makes.
// The seed's sets sit right under covers/set/, an operator's under
// covers/set/YYYY/MM/ (blob.NewKey).
const SET = /^\/media\/covers\/set\/(?:\d{4}\/\d{2}\/)?[a-z0-9]{20,64}\.jpg$/

// CARD_SIZES: a card is half the phone's width (two columns), the phone
// column at most 430 px wide on a desktop.
export const CARD_SIZES = '(max-width: 430px) 50vw, 215px'

// coverSrcSet is the srcset of a card's cover, or undefined when the cover
// has no card-size copy. url maps each path to where it loads from (the
// image line).
export function coverSrcSet(path: string | null | undefined, url: (p: string) => string = (p) => p): string | undefined {
  if (!path || !SET.test(path)) return undefined
  return `${url(path.replace(/\.jpg$/, '.w360.jpg'))} 360w, ${url(path)} 480w`
}
