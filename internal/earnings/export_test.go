package earnings

// Errs is the handlers' error table, for tests asking what a call answers.
var Errs = errs
