module skipbo-starter-go

go 1.19
