"""Clean-room METEOR 1.5 (the CMU jar as pycocoevalcap runs it): normalisation (:mod:`.normalize`),
Snowball stemmer (:mod:`.snowball`), candidate matching and alignment (:mod:`.align`), the score
formula (:mod:`.score`), and the rows and scorer the meteor family uses (:mod:`.stats`)."""
