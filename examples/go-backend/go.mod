module example.com/go-memory

go 1.24
