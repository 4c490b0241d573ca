; Zed only: bracket pairs for matching and rainbow brackets.

("(" @open ")" @close)
("[" @open "]" @close)
(table_body "{" @open "}" @close)
(entity_body "{" @open "}" @close)
(item_shape "{" @open "}" @close)
(string "\"" @open "\"" @close)
