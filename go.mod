module github.com/mdxrender/mdxrender

go 1.26.8

require github.com/spf13/cobra v1.10.2

require (
	github.com/blezek/tga v0.0.0-20150626111426-80720cbc1017 // indirect
	github.com/fogleman/fauxgl v0.0.0-20250110135958-abf826acbbbd // indirect
	github.com/fogleman/simplify v0.0.0-20170216171241-d32f302d5046 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)
