package analysis

// FamilyOf exposes familyOf to the package's external tests.
var FamilyOf = familyOf

// ReprException exposes reprException to the package's external tests.
var ReprException = reprException
