package analysis

// FamilyOf exposes familyOf to the package's external tests.
var FamilyOf = familyOf
