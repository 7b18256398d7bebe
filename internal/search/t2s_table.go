package search

// t2sTable: traditional -> simplified, one character to one character.
var t2sTable = map[rune]rune{}
