// The Fabric language. The only grammar; docs/language.md is its reference.
// ANTLR types never leave compiler/ast/ (the AST builder).
grammar Fabric;

@lexer::members {
  static bool fabcUnitIsKeyword(const std::string &t) {
    size_t i = t.find_last_of("0123456789 \t");
    std::string unit = i == std::string::npos ? t : t.substr(i + 1);
    // `[2 for x in xs]`, `[x for x in 1..n + 1 if ok]`: a keyword after a number is never its unit.
    return unit == "source" || unit == "estimate" || unit == "for" || unit == "in" || unit == "if";
  }
  // The predicate also sees shorter prefixes of a word ("e" of "estimate"): only a whole word is a unit.
  static bool fabcWordGoesOn(size_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
}

file : item* EOF ;

item
  : importDecl
  | modelDecl
  | templateDecl
  | fnDecl
  | fabricDecl
  | stmt
  ;

importDecl   : 'import' STRING ';' ;

// A hardware model: a GPU, system, NIC, switch, optic or cable.
modelDecl    : 'model' name=ID ':' kind=ID '{' modelItem* '}' ;
modelItem    : portDecl | prop ;
portDecl     : 'port' name=ID '[' expr ']' propBlock ;

prop         : key=ID '=' expr annotation? ';' ;
// `estimate 20 W..30 W "..."`: a catalog figure's low and high bounds (docs/language.md).
annotation   : kind=('source' | 'estimate') (low=expr '..' high=expr)? STRING ;
propBlock    : '{' prop* '}' ;

templateDecl : 'template' name=ID '(' (param (',' param)*)? ')' (':' kind=ID)? block ;
param        : ID ('=' expr)? ;

// A pure function: parameters in, one expression out (docs/language.md, "fn").
fnDecl       : 'fn' name=ID '(' (ID (',' ID)*)? ')' '=' expr ';' ;

fabricDecl   : 'fabric' name=ID block ;
block        : '{' stmt* '}' ;

stmt
  : 'let' ID '=' expr ';'                                        # letStmt
  | 'param' ID '=' expr ';'                                      # paramStmt
  | 'option' ID '=' expr ';'                                     # optionStmt
  | name=ID arraySpec? ':' model=ID args? (propBlock ';'? | ';')  # instStmt
  | 'for' ID 'in' expr '..' expr block                           # forStmt
  | 'if' expr block ('else' elseBranch)?                         # ifStmt
  | 'link' path '--' path (propBlock ';'? | ';')                 # linkStmt
  | 'group' kind=ID name=ID ('[' expr ']')? '{' (path ';')* '}'  # groupStmt
  | 'place' path 'in' building=ID ('.' hall=ID)? (propBlock ';'? | ';') # placeStmt
  | 'building' name=ID '{' (prop | hallDecl)* '}'                # buildingStmt
  | 'span' ID '--' ID propBlock ';'?                             # spanStmt
  | 'policy' kind=ID propBlock                                   # policyStmt
  | 'assert' expr (',' STRING)? ';'                              # assertStmt
  ;

elseBranch   : block | 'if' expr block ('else' elseBranch)? ;
hallDecl     : 'hall' ID propBlock ;
arraySpec    : '[' (ID 'in' expr '..')? expr ']' ;
args         : '(' (arg (',' arg)*)? ')' ;
arg          : (ID '=')? expr ;

path         : segment ('.' segment)* ;
segment      : ID ('[' (star='*' | expr) ']')? ;

expr
  : primary                                                      # primaryExpr
  | op=('-' | '!') expr                                          # unaryExpr
  | expr op=('*' | '/' | '%') expr                               # binaryExpr
  | expr op=('+' | '-') expr                                     # binaryExpr
  | expr op=('<' | '<=' | '>' | '>=') expr                       # binaryExpr
  | expr op=('==' | '!=') expr                                   # binaryExpr
  | expr op='&&' expr                                            # binaryExpr
  | expr op='||' expr                                            # binaryExpr
  | <assoc=right> expr '?' expr ':' expr                         # condExpr
  ;

primary
  : QUANTITY                                                     # quantityLit
  | PERCENT                                                      # percentLit
  | NUMBER                                                       # numberLit
  | STRING                                                       # stringLit
  | ('true' | 'false')                                           # boolLit
  | ID '(' (expr (',' expr)*)? ')'                               # callExpr
  | ID ('[' expr ']')*                                           # nameExpr
  | '[' expr 'for' ID 'in' expr ('..' expr)? ('if' expr)? ']'    # compExpr
  | '[' (expr (',' expr)*)? ']'                                  # listExpr
  | '(' expr ')'                                                 # parenExpr
  ;

// A number and its unit are one token ("400 Gb/s", "10.2 kW", "5ns"), so that
// "Gb/s" never parses as a division. Unknown units are rejected in semantic checks.
// NUMBER comes first so that "1e9" (as long as its reading "1 e9") stays a number.
NUMBER       : DIGITS ('.' DIGITS)? ([eE] [+-]? DIGITS)? ;
// `4 estimate "..."` is a number and an annotation, `[2 for x in xs if c]` a number before
// a keyword: the keywords source, estimate, for, in and if are never units.
QUANTITY     : DIGITS ('.' DIGITS)? ([eE] [+-]? DIGITS)? [ \t]* UNIT {!fabcUnitIsKeyword(getText()) && !fabcWordGoesOn(_input->LA(1))}? ;
// A percent is a quantity too ("90%", a plain 0.9), written against its number: "90 % 4"
// and "90%4" stay the remainder.
PERCENT      : DIGITS ('.' DIGITS)? '%' {!fabcWordGoesOn(_input->LA(1)) && _input->LA(1) != '('}? ;
STRING       : '"' (~["\\\r\n] | '\\' .)* '"' ;
ID           : [a-zA-Z_] [a-zA-Z_0-9]* ;

fragment DIGITS : [0-9] ('_'? [0-9])* ;
fragment UNIT   : [a-zA-Z] [a-zA-Z0-9]* ('/' [a-zA-Z]+)? ;

// Comments go to the hidden channel, not away: the parser never sees them, `fabc fmt` keeps them.
LINE_COMMENT : '//' ~[\r\n]* -> channel(HIDDEN) ;
BLOCK_COMMENT: '/*' .*? '*/' -> channel(HIDDEN) ;
WS           : [ \t\r\n\uFEFF]+ -> skip ; // U+FEFF: the byte-order mark some editors write
// Anything else is one bad character, reported by the parser with its location.
BAD_CHAR     : . ;
